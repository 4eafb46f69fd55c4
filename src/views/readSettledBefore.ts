import type { Store } from "../store/types.js";
import type { NetworkView } from "./createNetworkView.js";

/**
 * Unix seconds before which no stored trade of the network can change any more: the timestamp of
 * the oldest block a reorg could still replace (see MarketReader.settledBefore).
 */
export async function readSettledBefore(
  store: Pick<Store, "listBlocks">,
  view: NetworkView,
): Promise<number | undefined> {
  const indexed = view.status.indexedBlock;
  if (indexed === undefined) return undefined;
  const oldest = indexed - BigInt(view.config.finalityDepth);
  if (oldest < 0n) return undefined;
  // Only that very block will do: a later one's timestamp could be past trades a reorg replaces.
  const [block] = await store.listBlocks(view.config.name, oldest);
  if (block?.number === oldest) return block.timestamp;
  if (view.status.ready) return undefined;
  // A backfill keeps only the last block of each range it commits (applyRange keeps the hash links
  // near the head only): the newest of them at or below that block settles what it covers, since
  // no block after it is older. Hours settle as the backfill passes them, not after it.
  const below = (await store.listBlocks(view.config.name)).findLast((kept) => kept.number <= oldest);
  return below?.timestamp;
}
