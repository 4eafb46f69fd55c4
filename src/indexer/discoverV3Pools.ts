import { zeroAddress } from "viem";
import { readPoolBalances } from "../chain/readPoolBalances.js";
import { buildV3PoolAddressRead, readV3PoolInfos } from "../chain/readV3PoolInfos.js";
import { readV3PoolState } from "../chain/readV3PoolState.js";
import type { BatchedRead } from "../chain/runBatchedReads.js";
import { V3_FEE_TIERS } from "../config/dexPresets.js";
import type { Address, Pair, Token, V3PoolPrice, V3TickLiquidity } from "../domain/types.js";
import type { V3State } from "../pricing/types.js";
import { v3PoolState } from "../views/buildPoolStates.js";
import { admitPairs } from "./admitPairs.js";
import { buildV3State } from "./buildV3State.js";
import type { IndexerContext } from "./createIndexerContext.js";

/** The getPool probes of a token lookup: one per configured V3 factory, base token and fee tier. */
export interface V3Probe {
  factory: Address;
  fee: number;
  read: BatchedRead<Address | undefined>;
}

/**
 * Where a token's V3 pools can be: every configured V3 factory's getPool(token, base, fee) for
 * each base token and each fee tier its design enables at deployment or that an indexed pool of
 * that factory has. Read in the same eth_call as the token's metadata.
 */
export function buildV3Probes(ctx: IndexerContext, token: Address): V3Probe[] {
  const probes: V3Probe[] = [];
  const indexedFees = feesOfIndexedPools(ctx);
  for (const dex of ctx.config.dexes) {
    if (dex.kind === "uniswap-v2") continue;
    const fees = new Set(V3_FEE_TIERS[dex.kind].map((tier) => tier.fee));
    for (const fee of indexedFees.get(dex.factory.toLowerCase()) ?? []) fees.add(fee);
    for (const base of ctx.config.baseTokens) {
      if (base === token) continue;
      for (const fee of fees) {
        probes.push({
          factory: dex.factory,
          fee,
          read: buildV3PoolAddressRead(dex.factory, token, base, fee),
        });
      }
    }
  }
  return probes;
}

// The fee tiers of the indexed V3 pools by factory, recounted only when pools were added: a
// lookup must not walk every indexed pool (hundreds of thousands on a busy chain) each time.
const indexedFeesByContext = new WeakMap<IndexerContext, { pools: number; fees: Map<string, Set<number>> }>();

function feesOfIndexedPools(ctx: IndexerContext): Map<string, Set<number>> {
  const kept = indexedFeesByContext.get(ctx);
  if (kept !== undefined && kept.pools === ctx.pairs.size) return kept.fees;
  const fees = new Map<string, Set<number>>();
  for (const pair of ctx.pairs.values()) {
    if (pair.v3 === undefined) continue;
    const set = fees.get(pair.factory) ?? new Set<number>();
    set.add(pair.v3.fee);
    fees.set(pair.factory, set);
  }
  indexedFeesByContext.set(ctx, { pools: ctx.pairs.size, fees });
  return fees;
}

/** The pools the probes found (zero address and unanswered probes left out), each once. */
export function foundV3Pools(found: readonly (Address | undefined)[]): Address[] {
  return [...new Set(found.filter((pool): pool is Address => pool !== undefined && pool !== zeroAddress))];
}

/**
 * Admits a looked-up token's V3 pools that are not followed yet, inside the store's write turn:
 * each is checked against its factory (readV3PoolInfos), its state (slot0, liquidity, every
 * initialized tick, its balances of both tokens) is read at the checkpoint and committed as rows of that block with the pool,
 * so a restart or an API replica rebuilds the same state; the live graph then holds it. Returns
 * the pools admitted (the range loop reads again what it read without them).
 */
export async function admitV3Pools(
  ctx: IndexerContext,
  token: Token,
  pools: readonly Address[],
): Promise<Pair[]> {
  // Before the first checkpoint there is no block to read the state at and commit it with; the
  // backfill meets the pools by their logs anyway.
  const checkpoint = ctx.checkpoint;
  const fresh = pools.filter((pool) => !ctx.pairs.has(pool) && !ctx.rejected.has(pool));
  if (fresh.length === 0 || checkpoint === undefined) return [];
  const factories = ctx.factories.filter((dex) => dex.kind !== "uniswap-v2");
  const infos = await readV3PoolInfos(ctx.discoveryClient, fresh, factories);
  const blockNumber = checkpoint.blockNumber;
  // The state comes first: a pool is admitted only with it (no pool without a price).
  const states = new Map<Address, V3State>();
  await Promise.all(
    fresh.map(async (pool, i) => {
      if (infos[i] === undefined) return;
      const read = await readV3PoolState(ctx.discoveryClient, pool, blockNumber);
      if (read === undefined) return;
      states.set(pool, buildV3State(read));
    }),
  );
  // And what it holds, at the same block (one eth_call for all of them).
  const withState = fresh.flatMap((address, i) => (states.has(address) ? [infos[i]!] : []));
  const held = await readPoolBalances(ctx.discoveryClient, withState, blockNumber);
  withState.forEach((pair, i) => {
    states.set(pair.address, { ...states.get(pair.address)!, balances: held[i]! });
  });
  const usable = await admitPairs(
    ctx,
    fresh.map((address, i) => ({ address, info: states.has(address) ? infos[i] : undefined })),
    token,
  );
  if (usable.length === 0) return [];
  const v3Prices: V3PoolPrice[] = [];
  const v3Ticks: V3TickLiquidity[] = [];
  for (const pair of usable) {
    const state = states.get(pair.address)!;
    const { sqrtPriceX96, tick, liquidity, balances } = state;
    v3Prices.push({
      pool: pair.address,
      blockNumber,
      logIndex: -1,
      sqrtPriceX96,
      tick,
      liquidity,
      balances: balances!,
    });
    for (const [t, info] of state.ticks.entries())
      v3Ticks.push({ pool: pair.address, blockNumber, tick: t, ...info });
  }
  await ctx.store.commitRange(ctx.network, {
    checkpoint,
    blocks: [],
    pairs: usable,
    reserves: [],
    trades: [],
    v3Prices,
    v3Ticks,
  });
  for (const pair of usable) ctx.committedPairs.add(pair.address);
  const index = ctx.views.getPoolIndex(ctx.network);
  for (const pair of usable) index.update(v3PoolState(pair, states.get(pair.address)!));
  return usable;
}
