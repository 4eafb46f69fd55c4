import type { Address, PairReserves } from "../domain/types.js";
import type { PoolState } from "../pricing/types.js";
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
  const reserves = await store.listReserves(network);
  const checkpoint = await store.getCheckpoint(network);
  ctx.checkpoint = checkpoint;
  views.load(network, {
    tokens: [...tokens.values()],
    pools: poolsFrom(ctx, reserves),
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

function poolsFrom(ctx: IndexerContext, reserves: readonly PairReserves[]): PoolState[] {
  const byPair = new Map(reserves.map((row) => [row.pair, row]));
  const pools: PoolState[] = [];
  for (const pair of ctx.pairs.values()) {
    const row = byPair.get(pair.address);
    pools.push({ ...pair, reserve0: row?.reserve0 ?? 0n, reserve1: row?.reserve1 ?? 0n });
  }
  return pools;
}
