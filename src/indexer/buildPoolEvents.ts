import type { Address, NetworkName, PoolBalances, PoolEvent } from "../domain/types.js";
import type { RangeEvent } from "./rangeEvents.js";
import type { RangeRead } from "./readRange.js";

/**
 * The pool events of one transaction's logs (in chain order): each Swap, Mint and Burn of a pool
 * with the transaction's signer and, on a V2 pair, the reserves the pair's Sync just before it in
 * the same transaction set. The pair contract emits Sync from _update before it emits Swap, Mint
 * or Burn, so that Sync holds exactly what getReserves answers right after the event. A V3 pool's
 * reserves are its token balances right after the log, as the V3 tracker kept them from its
 * events (`v3Balances`, by event); unknown when the tracker had none.
 */
export function buildPoolEvents(
  network: NetworkName,
  read: RangeRead,
  events: readonly RangeEvent[],
  v3Balances: ReadonlyMap<RangeEvent, PoolBalances> = new Map(),
): PoolEvent[] {
  const out: PoolEvent[] = [];
  const syncs = new Map<Address, { reserve0: bigint; reserve1: bigint }>();
  for (const event of events) {
    if (event.kind === "sync") {
      syncs.set(event.pair, { reserve0: event.reserve0, reserve1: event.reserve1 });
      continue;
    }
    if (
      event.kind === "deposit" ||
      event.kind === "withdrawal" ||
      event.kind === "v3init" ||
      event.kind === "v3balance"
    )
      continue;
    const sender = read.senders.get(event.txHash);
    const timestamp = read.timestamps.get(event.blockNumber);
    // validateRange guarantees both; a range that skipped it is a programming error.
    if (sender === undefined || timestamp === undefined) {
      throw new Error(`buildPoolEvents: transaction ${event.txHash} was not validated`);
    }
    const at = {
      network,
      txHash: event.txHash,
      blockNumber: event.blockNumber,
      timestamp,
      txIndex: event.txIndex,
      logIndex: event.logIndex,
      maker: sender.from,
    };
    const held = v3Balances.get(event);
    const v3Reserves = held === undefined ? undefined : { reserve0: held.balance0, reserve1: held.balance1 };
    if (event.kind === "swap") {
      const reserves = event.v3 === undefined ? syncs.get(event.pair) : v3Reserves;
      out.push({
        ...at,
        pool: event.pair,
        type: "swap",
        amount0: event.amount0In - event.amount0Out,
        amount1: event.amount1In - event.amount1Out,
        reserves,
      });
    } else {
      const v2 = event.kind === "v2mint" || event.kind === "v2burn";
      out.push({
        ...at,
        pool: event.pool,
        type: event.kind === "v2mint" || event.kind === "v3mint" ? "join" : "exit",
        amount0: event.amount0,
        amount1: event.amount1,
        reserves: v2 ? syncs.get(event.pool) : v3Reserves,
      });
    }
  }
  return out;
}
