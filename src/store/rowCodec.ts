import type { Address, NetworkName, Trade } from "../domain/types.js";
import { SwapgraphError } from "../errors.js";

/** Pools as one text column: addresses joined by commas, in route order ("" for none). */
export function encodePools(pools: readonly Address[]): string {
  return pools.join(",");
}

/** Inverse of `encodePools`. */
export function decodePools(text: string): Address[] {
  return text === "" ? [] : (text.split(",") as Address[]);
}

/**
 * Keeps the last item of each key, in first-seen order. Upserts need it: PostgreSQL refuses an
 * `ON CONFLICT DO UPDATE` that touches one row twice, and SQLite would apply the last one anyway.
 */
export function lastByKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) byKey.set(key(item), item);
  return [...byKey.values()];
}

/** A trade filed under another network is an indexer bug: refuse the batch before writing anything. */
export function assertTradeNetworks(network: NetworkName, trades: readonly Trade[]): void {
  for (const trade of trades) {
    if (trade.network !== network) {
      throw new SwapgraphError("INTERNAL", "trade committed under another network", {
        details: `trade ${trade.txHash} is on ${trade.network}, the batch is for ${network}`,
      });
    }
  }
}
