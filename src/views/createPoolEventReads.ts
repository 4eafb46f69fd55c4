import type { NetworkName } from "../domain/types.js";
import type { Store } from "../store/types.js";
import type { MarketReader } from "./types.js";

/** The reads listings make of the store: pool events by block range, and a stored block's header. */
export function createPoolEventReads(
  store: Pick<Store, "listPoolEvents" | "listBlocks">,
  // Throws for a network that is not configured.
  assertConfigured: (network: NetworkName) => unknown,
): Pick<MarketReader, "listPoolEvents" | "getStoredBlock"> {
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
  };
}
