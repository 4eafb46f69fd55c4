import type { NetworkName } from "../domain/types.js";
import type { Store } from "../store/types.js";
import type { NetworkView } from "./createNetworkView.js";

/**
 * Unix seconds before which no stored trade of the network can change any more: the timestamp of
 * the oldest block a reorg could still replace (see MarketReader.settledBefore). `found` keeps,
 * per network, the block a backfill's answer was read from: the next one reads the blocks from
 * there on, not every block the backfill kept.
 */
export async function readSettledBefore(
  store: Pick<Store, "listBlocks">,
  view: NetworkView,
  found: Map<NetworkName, bigint>,
): Promise<number | undefined> {
  const { name } = view.config;
  const indexed = view.status.indexedBlock;
  if (indexed === undefined) return undefined;
  const oldest = indexed - BigInt(view.config.finalityDepth);
  if (oldest < 0n) return undefined;
  // Only that very block will do: a later one's timestamp could be past trades a reorg replaces.
  const [block] = await store.listBlocks(name, oldest);
  if (block?.number === oldest) return block.timestamp;
  if (view.status.ready) return undefined;
  // A backfill keeps only the last block of each range it commits (applyRange keeps the hash links
  // near the head only): the newest of them at or below that block settles what it covers, since
  // no block after it is older. Hours settle as the backfill passes them, not after it.
  const from = found.get(name);
  let kept = from === undefined ? [] : await store.listBlocks(name, from);
  // The first time, or that block is gone (a rollback): every kept block is read once.
  if (from === undefined || kept[0]?.number !== from) kept = await store.listBlocks(name);
  const below = kept.findLast((candidate) => candidate.number <= oldest);
  if (below !== undefined) found.set(name, below.number);
  return below?.timestamp;
}
