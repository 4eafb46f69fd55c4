import { readPoolBalances } from "../chain/readPoolBalances.js";
import { readV3PoolState } from "../chain/readV3PoolState.js";
import type { Address, Pair, PoolBalances } from "../domain/types.js";
import type { V3State } from "../pricing/types.js";
import { buildV3State } from "./buildV3State.js";
import type { IndexerContext } from "./createIndexerContext.js";
import type { V3Snapshots } from "./createV3Tracker.js";
import { eventPool, type RangeEvent } from "./rangeEvents.js";

/**
 * The state just before a range of the V3 pools whose events it holds but whose state the
 * indexer does not have: pools created before the indexed window (their ticks were set by
 * Mints long ago), read from the chain at `before` (slot0, liquidity, every initialized tick,
 * and the pool's balanceOf of both tokens). A pool whose first event in the range is its
 * Initialize is created in the range: nothing to read. A pool whose state the indexer has but
 * not its balances (stored before schema version 9) has only its balances read, in one eth_call
 * for all such pools; so has, once per process, every other such pool, with no event in the range
 * (sweepUnheld): their balances become known at the first range instead of at their next event.
 * Reads at a past block need a node that keeps that block's state.
 */
export async function snapshotV3Pools(
  ctx: IndexerContext,
  events: readonly RangeEvent[],
  before: bigint,
): Promise<V3Snapshots> {
  const live = ctx.views.getPoolIndex(ctx.network);
  const wanted = new Set<Address>();
  const unheld: Pair[] = [];
  const seen = new Set<Address>();
  for (const event of events) {
    const pool = eventPool(event);
    if (pool === undefined || seen.has(pool)) continue;
    seen.add(pool);
    const pair = ctx.pairs.get(pool);
    if (pair?.v3 === undefined) continue;
    const state = live.get(pool)?.v3State;
    if (state !== undefined) {
      if (state.balances === undefined) unheld.push(pair);
      continue;
    }
    if (event.kind !== "v3init") wanted.add(pool);
  }
  const pairsOf = (pools: Iterable<Address>): Pair[] => [...pools].map((pool) => ctx.pairs.get(pool)!);
  const states = new Map<Address, V3State>();
  const [swept, , held, fresh] = await Promise.all([
    sweepUnheld(ctx, seen, before),
    Promise.all(
      [...wanted].map(async (pool) => {
        const read = await readV3PoolState(ctx.client, pool, before);
        if (read === undefined) return;
        states.set(pool, buildV3State(read));
      }),
    ),
    readPoolBalances(ctx.client, unheld, before),
    readPoolBalances(ctx.client, pairsOf(wanted), before),
  ]);
  pairsOf(wanted).forEach((pair, i) => {
    const state = states.get(pair.address);
    if (state !== undefined) states.set(pair.address, { ...state, balances: fresh[i]! });
  });
  const balances = new Map<Address, PoolBalances>([
    ...swept,
    ...unheld.map((pair, i) => [pair.address, held[i]!] as const),
  ]);
  return { block: before, states, balances };
}

// Per indexer context: the pools whose balances a sweep could not read (not tried again until a
// restart; their next event still reads them).
const unreadable = new WeakMap<IndexerContext, Set<Address>>();

/**
 * The balances at `before` of the V3 pools the indexer has a state of but no balances (stored
 * before schema version 9) and that have no event in the range (`inRange`): one capped multicall
 * for all of them. A failed read is logged and leaves them unknown (a token that no longer
 * answers balanceOf must not stop the range); those pools are not swept again by this process.
 * Read balances are recorded by the range's commit (createV3Tracker), so once committed the pools
 * are known and never swept again; a range that is read again sweeps them again.
 */
async function sweepUnheld(
  ctx: IndexerContext,
  inRange: ReadonlySet<Address>,
  before: bigint,
): Promise<[Address, PoolBalances][]> {
  let failed = unreadable.get(ctx);
  if (failed === undefined) {
    failed = new Set();
    unreadable.set(ctx, failed);
  }
  const pools: Pair[] = [];
  for (const pool of ctx.views.getPoolIndex(ctx.network).all()) {
    if (pool.v3State === undefined || pool.v3State.balances !== undefined) continue;
    if (inRange.has(pool.address) || failed.has(pool.address)) continue;
    const pair = ctx.pairs.get(pool.address);
    if (pair?.v3 !== undefined) pools.push(pair);
  }
  if (pools.length === 0) return [];
  try {
    const read = await readPoolBalances(ctx.client, pools, before);
    return pools.map((pair, i) => [pair.address, read[i]!]);
  } catch (error) {
    for (const pair of pools) failed.add(pair.address);
    ctx.log.warn(
      {
        network: ctx.network,
        pools: pools.length,
        block: before.toString(),
        err: error instanceof Error ? error.message : String(error),
      },
      "V3 pools' token balances (unknown since before schema version 9) were not read; they stay unknown until each pool's next event",
    );
    return [];
  }
}
