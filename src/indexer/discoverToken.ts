import { zeroAddress } from "viem";
import { buildPairAddressRead } from "../chain/buildPairAddressRead.js";
import { buildTokenMetadataRead } from "../chain/buildTokenMetadataRead.js";
import { runBatchedReads } from "../chain/runBatchedReads.js";
import type { Address, Token } from "../domain/types.js";
import { admitPairs } from "./admitPairs.js";
import { type Candidate, checkCandidates } from "./checkCandidates.js";
import type { IndexerContext } from "./createIndexerContext.js";
import { admitV3Pools, buildV3Probes, foundV3Pools } from "./discoverV3Pools.js";

/**
 * A caller-named token: its metadata (gas-capped, cleaned, bounded) and its pools with the base
 * tokens (V2 factories' getPair, V3 factories' getPool at each fee tier), in one eth_call; when
 * it has pools not known yet, V2 pairs are checked and their reserves read at the checkpoint in a
 * second call, V3 pools checked and their state read there (admitV3Pools). Found pools are
 * followed from now on, and only then are the token and they stored; a token without such a
 * pool is only remembered by the lookup cache.
 */
export async function discoverToken(ctx: IndexerContext, address: Address): Promise<Token> {
  const { config, network } = ctx;
  const probes = config.dexes
    .filter((dex) => dex.kind === "uniswap-v2")
    .flatMap((dex) =>
      config.baseTokens.filter((base) => base !== address).map((base) => ({ factory: dex.factory, base })),
    );
  const v3Probes = buildV3Probes(ctx, address);
  const [token, ...found] = (await runBatchedReads(ctx.discoveryClient, [
    buildTokenMetadataRead(address, network),
    ...probes.map((probe) => buildPairAddressRead(probe.factory, address, probe.base)),
    ...v3Probes.map((probe) => probe.read),
  ])) as [Token, ...(Address | undefined)[]];
  const candidates = new Map<Address, Candidate>();
  for (const [i, pair] of found.slice(0, probes.length).entries()) {
    if (pair !== undefined && pair !== zeroAddress && !candidates.has(pair)) {
      candidates.set(pair, { address: pair, ...probes[i]! });
    }
  }
  const v3Pools = foundV3Pools(found.slice(probes.length));
  const isNew = (pool: Address) => !ctx.pairs.has(pool) && !ctx.rejected.has(pool);
  if (![...candidates.keys(), ...v3Pools].some(isNew)) return token;
  await ctx.exclusive(async () => {
    // Inside the store's write turn, as the V2 pairs below.
    if ((await admitV3Pools(ctx, token, v3Pools)).length > 0) ctx.pairsEpoch++;
    // Inside the store's write turn: the range loop may have met these pools meanwhile, and the
    // reserves must be those of the checkpoint they are committed with.
    const fresh = [...candidates.values()].filter((candidate) => isNew(candidate.address));
    if (fresh.length === 0) return;
    const at = ctx.checkpoint?.blockNumber;
    const checked = await checkCandidates(ctx, address, fresh, at);
    const usable = await admitPairs(ctx, checked, token);
    if (usable.length === 0) return;
    // Ranges read before lack these pools' logs: they are read again.
    ctx.pairsEpoch++;
    const reserveOf = new Map(checked.map((c) => [c.address, c.reserves]));
    const reserves = usable.map((pair) => ({
      pair: pair.address,
      blockNumber: at ?? 0n,
      logIndex: -1,
      ...reserveOf.get(pair.address)!,
    }));
    const checkpoint = ctx.checkpoint;
    if (checkpoint !== undefined) {
      await ctx.store.commitRange(network, { checkpoint, blocks: [], pairs: usable, reserves, trades: [] });
      for (const pair of usable) ctx.committedPairs.add(pair.address);
    }
    const index = ctx.views.getPoolIndex(network);
    for (const [i, pair] of usable.entries()) {
      index.update({ ...pair, reserve0: reserves[i]!.reserve0, reserve1: reserves[i]!.reserve1 });
    }
  });
  return ctx.tokens.get(address) ?? token;
}
