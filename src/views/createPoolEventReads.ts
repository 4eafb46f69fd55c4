import type { Address, NetworkName } from "../domain/types.js";
import { createLruCache } from "../lib/createLruCache.js";
import type { Store } from "../store/types.js";
import type { MarketReader } from "./types.js";

/** Reads a token's totalSupply at a block from the chain (supplied per network by createIndexing). */
export type SupplyReader = (token: Address, blockNumber: bigint) => Promise<bigint | undefined>;

/**
 * The reads listings make: pool events by block range and a stored block's header (from the
 * store), and token supplies at a block (from the chain, through the network's SupplyReader; a
 * supply at a block never changes, so each is read once while it is remembered).
 */
export function createPoolEventReads(
  store: Pick<Store, "listPoolEvents" | "listBlocks">,
  // Throws for a network that is not configured.
  assertConfigured: (network: NetworkName) => unknown,
): Pick<MarketReader, "listPoolEvents" | "getStoredBlock" | "readTotalSupply"> & {
  setSupplyReader(network: NetworkName, reader: SupplyReader): void;
} {
  const readers = new Map<NetworkName, SupplyReader>();
  const supplies = createLruCache<Promise<bigint | undefined>>({ maxEntries: 10_000 });
  return {
    async listPoolEvents(network, query) {
      assertConfigured(network);
      return store.listPoolEvents(network, query);
    },
    async getStoredBlock(network, blockNumber) {
      assertConfigured(network);
      const [first] = await store.listBlocks(network, blockNumber);
      return first?.number === blockNumber ? first : undefined;
    },
    async readTotalSupply(network, token, blockNumber) {
      assertConfigured(network);
      const reader = readers.get(network);
      if (reader === undefined) return undefined;
      const key = `${network}:${token}:${blockNumber}`;
      let supply = supplies.get(key);
      if (supply === undefined) {
        supply = reader(token, blockNumber);
        supplies.set(key, supply);
        // A failed read is not remembered: the next request asks again.
        supply.catch(() => supplies.delete(key));
      }
      return supply;
    },
    setSupplyReader(network, reader) {
      readers.set(network, reader);
    },
  };
}
