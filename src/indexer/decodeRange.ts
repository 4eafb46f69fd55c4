import type {
  Hash,
  LiquidityEvent,
  PairReserves,
  PoolBalances,
  PoolEvent,
  Trade,
  TradeMarks,
  V3PoolPrice,
  V3TickLiquidity,
} from "../domain/types.js";
import { NATIVE } from "../domain/types.js";
import { getTokenPriceUsd } from "../pricing/getTokenPriceUsd.js";
import { valueTradeUsd } from "../pricing/valueTradeUsd.js";
import { buildPoolEvents } from "./buildPoolEvents.js";
import { buildTrade, type SwapEvent, swapSides } from "./buildTrades.js";
import { createV3Tracker } from "./createV3Tracker.js";
import { groupSwapChains } from "./groupSwapChains.js";
import { matchNativeSides, type WrapEvent } from "./matchNativeSides.js";
import type { DecodeContext, RangeEvent, RangeRead } from "./readRange.js";
import { valueLiquidityEvent } from "./valueLiquidityEvent.js";

/** What a validated range becomes: what the store commits. */
export interface DecodedRange {
  /** One trade per chain of swaps (see groupSwapChains), in chain order, valued in USD at its block. */
  trades: Trade[];
  /** The last Sync of each pair in each block. */
  reserves: PairReserves[];
  /** V3 pools: price and active liquidity after each pool's last event in each block. */
  v3Prices: V3PoolPrice[];
  /** V3 pools: each tick a Mint or Burn changed, as it stands after each block. */
  v3Ticks: V3TickLiquidity[];
  /** V2 and V3 Mints and Burns, valued in USD at their transaction. */
  liquidityEvents: LiquidityEvent[];
  /** Every Swap, Mint and Burn of a pool with its signer and the reserves after it (see buildPoolEvents). */
  poolEvents: PoolEvent[];
}

/**
 * Turns a validated range into trades and reserves. Pure: the only state it touches is `pools`,
 * which the caller passes as an overlay of the live graph (each trade is valued with the
 * reserves after its own transaction, as the chain left them).
 */
export function decodeRange(read: RangeRead, ctx: DecodeContext): DecodedRange {
  const trades: Trade[] = [];
  const reserves = new Map<string, PairReserves>();
  const liquidityEvents: LiquidityEvent[] = [];
  const poolEvents: PoolEvent[] = [];
  const v3 = createV3Tracker(ctx.pools, ctx.pairs, ctx.v3Snapshots);
  // Each V3 log's pool balances right after it (the transaction's pool events carry them).
  let v3Balances = new Map<RangeEvent, PoolBalances>();
  let group: RangeEvent[] = [];

  const flush = (): void => {
    const events = group;
    group = [];
    for (const event of buildPoolEvents(ctx.network, read, events, v3Balances)) poolEvents.push(event);
    v3Balances = new Map();
    const swaps: SwapEvent[] = [];
    const wraps: WrapEvent[] = [];
    for (const event of events) {
      if (event.kind === "deposit" || event.kind === "withdrawal") wraps.push(event);
      else if (
        event.kind === "v3mint" ||
        event.kind === "v3burn" ||
        event.kind === "v2mint" ||
        event.kind === "v2burn"
      ) {
        liquidityEvents.push(valueLiquidityEvent(read, ctx, event));
      } else if (event.kind === "swap") {
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
    };
    const chains = groupSwapChains(swaps);
    const natives = matchNativeSides(chains, wraps, ctx.wrappedNative);
    for (const [i, chain] of chains.entries()) {
      const base = buildTrade({ network: ctx.network, swaps: chain, tx, native: natives[i]! });
      const tokenIn = base.tokenIn === NATIVE ? ctx.wrappedNative : base.tokenIn;
      const tokenOut = base.tokenOut === NATIVE ? ctx.wrappedNative : base.tokenOut;
      const value = valueTradeUsd({
        index: ctx.pools,
        params: ctx.pricing,
        tokenIn,
        amountIn: base.amountIn,
        tokenOut,
        amountOut: base.amountOut,
      });
      // Candles sample each side at the price the rules give it here, after the transaction's
      // syncs: the same prices the trade was valued with (memoized, so no second computation).
      const marks: TradeMarks = {
        priceInUsd: getTokenPriceUsd(ctx.pools, ctx.pricing, tokenIn),
        priceOutUsd: getTokenPriceUsd(ctx.pools, ctx.pricing, tokenOut),
        native: base.tokenIn === NATIVE || base.tokenOut === NATIVE ? ctx.wrappedNative : undefined,
        hops: chain.map((swap) => {
          const sides = swapSides(swap);
          return {
            zeroForOne: sides.tokenIn === swap.pair.token0,
            amountIn: sides.amountIn,
            amountOut: sides.amountOut,
          };
        }),
      };
      trades.push({ ...base, volumeUsd: value.volumeUsd, tracked: value.tracked, marks });
    }
  };

  let txHash: Hash | undefined;
  for (const event of read.events) {
    if (event.txHash !== txHash) {
      flush();
      txHash = event.txHash;
    }
    group.push(event);
    const held = v3.apply(event);
    if (held !== undefined) v3Balances.set(event, held);
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
  return {
    trades,
    reserves: [...reserves.values()],
    v3Prices: v3.prices(),
    v3Ticks: v3.ticks(),
    liquidityEvents,
    poolEvents,
  };
}
