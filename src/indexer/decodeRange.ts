import type { Address, Hash, NetworkName, Pair, PairReserves, Trade } from "../domain/types.js";
import { NATIVE } from "../domain/types.js";
import type { PoolIndex, PricingParams } from "../pricing/types.js";
import { valueTradeUsd } from "../pricing/valueTradeUsd.js";
import { buildTrade, type SwapEvent } from "./buildTrades.js";
import { groupSwapChains } from "./groupSwapChains.js";
import type { RangeEvent, RangeRead } from "./readRange.js";

/** The input of decodeRange besides the range itself. */
export interface DecodeContext {
  network: NetworkName;
  /** Accepted pairs by address (every pair the range's events name is among them). */
  pairs: ReadonlyMap<Address, Pair>;
  /** The pool graph as of the range's start; every Sync of the range is applied to it in order. */
  pools: PoolIndex;
  pricing: PricingParams;
  wrappedNative: Address;
  routers: ReadonlySet<Address>;
}

/** What a validated range becomes: what the store commits. */
export interface DecodedRange {
  /** One trade per chain of swaps (see groupSwapChains), in chain order, valued in USD at its block. */
  trades: Trade[];
  /** The last Sync of each pair in each block. */
  reserves: PairReserves[];
}

/**
 * Turns a validated range into trades and reserves. Pure: the only state it touches is `pools`,
 * which the caller passes as an overlay of the live graph (each trade is valued with the
 * reserves after its own transaction, as the chain left them).
 */
export function decodeRange(read: RangeRead, ctx: DecodeContext): DecodedRange {
  const trades: Trade[] = [];
  const reserves = new Map<string, PairReserves>();
  let group: RangeEvent[] = [];

  const flush = (): void => {
    const events = group;
    group = [];
    const swaps: SwapEvent[] = [];
    let routerWrapped = false;
    let routerUnwrapped = false;
    for (const event of events) {
      if (event.kind === "deposit") routerWrapped ||= ctx.routers.has(event.account);
      else if (event.kind === "withdrawal") routerUnwrapped ||= ctx.routers.has(event.account);
      else if (event.kind === "swap") {
        swaps.push({
          txHash: event.txHash,
          blockNumber: event.blockNumber,
          logIndex: event.logIndex,
          pair: ctx.pairs.get(event.pair)!,
          amount0In: event.amount0In,
          amount1In: event.amount1In,
          amount0Out: event.amount0Out,
          amount1Out: event.amount1Out,
          to: event.to,
        });
      }
    }
    const head = swaps[0];
    if (head === undefined) return;
    const sender = read.senders.get(head.txHash);
    const timestamp = read.timestamps.get(head.blockNumber);
    // validateRange guarantees both; a range that skipped it is a programming error.
    if (sender === undefined || timestamp === undefined) {
      throw new Error(`decodeRange: transaction ${head.txHash} was not validated`);
    }
    const tx = {
      txIndex: events[0]!.txIndex,
      from: sender.from,
      timestamp,
      routerWrapped,
      routerUnwrapped,
    };
    for (const chain of groupSwapChains(swaps)) {
      const base = buildTrade({
        network: ctx.network,
        swaps: chain,
        tx,
        wrappedNative: ctx.wrappedNative,
        routers: ctx.routers,
      });
      const value = valueTradeUsd({
        index: ctx.pools,
        params: ctx.pricing,
        tokenIn: base.tokenIn === NATIVE ? ctx.wrappedNative : base.tokenIn,
        amountIn: base.amountIn,
        tokenOut: base.tokenOut === NATIVE ? ctx.wrappedNative : base.tokenOut,
        amountOut: base.amountOut,
      });
      trades.push({ ...base, volumeUsd: value.volumeUsd, tracked: value.tracked });
    }
  };

  let txHash: Hash | undefined;
  for (const event of read.events) {
    if (event.txHash !== txHash) {
      flush();
      txHash = event.txHash;
    }
    group.push(event);
    if (event.kind === "sync") {
      const pair = ctx.pairs.get(event.pair)!;
      ctx.pools.update({ ...pair, reserve0: event.reserve0, reserve1: event.reserve1 });
      reserves.set(`${event.pair}:${event.blockNumber}`, {
        pair: event.pair,
        blockNumber: event.blockNumber,
        logIndex: event.logIndex,
        reserve0: event.reserve0,
        reserve1: event.reserve1,
      });
    }
  }
  flush();
  return { trades, reserves: [...reserves.values()] };
}
