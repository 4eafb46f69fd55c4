import { buildPairAddressRead } from "../chain/buildPairAddressRead.js";
import { findBlockByTimestamp } from "../chain/findBlockByTimestamp.js";
import { readManyReserves } from "../chain/readManyReserves.js";
import { type BatchedRead, runBatchedReads } from "../chain/runBatchedReads.js";
import type { Address, Checkpoint } from "../domain/types.js";
import { listTokens } from "../views/listTokens.js";
import { classifyPairs } from "./classifyPairs.js";
import type { IndexerContext } from "./createIndexerContext.js";
import { readHeader } from "./readRange.js";
import { windowStart } from "./windowStart.js";

/** First indexing of this network: find the start block and seed the pools of the token list. */
export async function seedNetwork(ctx: IndexerContext): Promise<Checkpoint> {
  const { config, client, network } = ctx;
  const start = config.startBlock ?? (await findBlockByTimestamp(client, windowStart(ctx)));
  const before = start > 0n ? start - 1n : 0n;
  const ref = await readHeader(client, before);
  // Pools that hold listed tokens but do not trade early in the window still price and route.
  const listed = [...new Set([...listTokens(config).map((t) => t.address as Address), ...config.baseTokens])];
  const seen = new Set<string>();
  const lookups: BatchedRead<Address>[] = [];
  // getPair answers for V2 factories; V3 pools join the graph by their own logs (and a read of
  // their state when first met mid-history).
  for (const dex of config.dexes.filter((d) => d.kind === "uniswap-v2")) {
    for (const base of config.baseTokens) {
      for (const token of listed) {
        const key = `${dex.factory}:${token < base ? `${token}:${base}` : `${base}:${token}`}`;
        if (token === base || seen.has(key)) continue;
        seen.add(key);
        lookups.push(buildPairAddressRead(dex.factory, token, base));
      }
    }
  }
  // Every factory x base x listed token in one eth_call, then the pools' checks and reserves.
  const candidates: readonly Address[] = await runBatchedReads<Address[]>(client, lookups);
  const found = await classifyPairs(
    ctx,
    candidates.filter((a: Address) => !/^0x0{40}$/.test(a)),
  );
  const reserves = (
    await readManyReserves(
      client,
      found.map((pair) => pair.address),
      before,
    )
  ).map((r, i) => ({
    pair: found[i]!.address,
    blockNumber: before,
    logIndex: -1,
    reserve0: r.reserve0,
    reserve1: r.reserve1,
  }));
  const cp = { blockNumber: before, blockHash: ref.hash };
  await ctx.store.commitRange(network, { checkpoint: cp, blocks: [ref], pairs: found, reserves, trades: [] });
  for (const pair of found) ctx.committedPairs.add(pair.address);
  const index = ctx.views.getPoolIndex(network);
  for (const [i, pair] of found.entries()) {
    index.update({ ...pair, reserve0: reserves[i]!.reserve0, reserve1: reserves[i]!.reserve1 });
  }
  ctx.views.markIndexed(network, cp);
  ctx.log.info({ network, startBlock: start, seededPools: found.length }, "backfill starts");
  return cp;
}
