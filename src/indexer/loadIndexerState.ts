import type { Address } from "../domain/types.js";
import { buildPoolStates } from "../views/buildPoolStates.js";
import { listTokens } from "../views/listTokens.js";
import type { IndexerContext } from "./createIndexerContext.js";

/**
 * Loads what the store holds for the network (tokens, pairs, refused pools, reserves, the
 * checkpoint and the writer's last head record) into the context and the live views; after a
 * rollback, the context's pools are cleared first.
 */
export async function loadIndexerState(ctx: IndexerContext): Promise<void> {
  const { config, store, views, network, tokens, pairs } = ctx;
  pairs.clear();
  ctx.committedPairs.clear();
  ctx.rejected.clear();
  for (const token of listTokens(config)) tokens.set(token.address as Address, token);
  for (const token of await store.listTokens(network)) tokens.set(token.address as Address, token);
  for (const pair of await store.listPairs(network)) {
    pairs.set(pair.address, pair);
    ctx.committedPairs.add(pair.address);
  }
  for (const address of await store.listRejectedPairs(network)) ctx.rejected.add(address);
  const [reserves, v3Prices, v3Ticks] = await Promise.all([
    store.listReserves(network),
    store.listV3Prices(network),
    store.listV3Ticks(network),
  ]);
  const checkpoint = await store.getCheckpoint(network);
  ctx.checkpoint = checkpoint;
  views.load(network, {
    tokens: [...tokens.values()],
    pools: buildPoolStates({ pairs: [...pairs.values()], reserves, v3Prices, v3Ticks }),
    ...(checkpoint === undefined ? {} : { checkpoint }),
  });
  // A restart serves what the store holds at once: its freshness is the writer's last record.
  const head = await store.getHead(network);
  views.setStatus(network, {
    indexedBlock: checkpoint?.blockNumber,
    ...(head === undefined
      ? {}
      : {
          headBlock: head.headBlock,
          headCheckedAt: head.checkedAt,
          syncedAt: head.syncedAt,
          ready: head.syncedAt !== undefined,
        }),
  });
}
