import type { Address, LiquidityEvent, Pair, V3PoolPrice, V3TickLiquidity } from "../../src/domain/types.js";
import type { RangeBatch, Store } from "../../src/store/types.js";
import { addr, hash, T0 } from "./storeFixtures.js";

// V3 pools, their prices and ticks, and liquidity events of the store suite.

export const V3_POOL_A = addr(0x3a1);
export const V3_POOL_B = addr(0x3b2);
export const TOKEN_X = addr(0x80);
export const TOKEN_Y = addr(0x81);
export const TOKEN_Z = addr(0x82);
export const MAX_UINT128 = 2n ** 128n - 1n;
export const MAX_UINT160 = 2n ** 160n - 1n;
export const MIN_INT128 = -(2n ** 127n);

/** A V3 pool of (token0, token1) with a fee in pips. */
function v3Pair(address: Address, token0: Address, token1: Address, fee = 3_000): Pair {
  return {
    address,
    dex: "uniswap-v3",
    factory: addr(0xf3),
    token0,
    token1,
    feeBps: fee / 100,
    v3: { fee, tickSpacing: fee === 500 ? 10 : 60 },
  };
}

/** The V3 pools of the suite: A holds X/Y, B holds Y/Z. */
export const V3_PAIRS = [v3Pair(V3_POOL_A, TOKEN_X, TOKEN_Y), v3Pair(V3_POOL_B, TOKEN_Y, TOKEN_Z, 500)];

export const price = (pool: Address, blockNumber: bigint, tick: number, logIndex = 0): V3PoolPrice => ({
  pool,
  blockNumber,
  logIndex,
  sqrtPriceX96: 2n ** 96n + BigInt(tick) * 7n,
  tick,
  liquidity: 10n ** 20n + BigInt(tick),
});

export const tickRow = (
  pool: Address,
  blockNumber: bigint,
  tick: number,
  liquidityNet: bigint,
  liquidityGross: bigint,
): V3TickLiquidity => ({ pool, blockNumber, tick, liquidityNet, liquidityGross });

/** Liquidity event i: block `blockNumber`, log index i, a V3 mint or burn of `pool` (a V2 one when `v2`). */
export function liquidityEvent(
  i: number,
  blockNumber: bigint,
  pool: Address,
  overrides: Partial<LiquidityEvent> = {},
): LiquidityEvent {
  return {
    network: "bsc",
    txHash: hash(0x9000 + i),
    blockNumber,
    timestamp: T0 + Number(blockNumber) * 3,
    txIndex: i % 5,
    logIndex: i,
    pool,
    type: i % 3 === 0 ? "burn" : "mint",
    sender: addr(0x6000 + (i % 4)),
    owner: addr(0x6100 + (i % 3)),
    amount0: 10n ** 18n * BigInt(i + 1) + 1n,
    amount1: 2n ** 200n + BigInt(i),
    liquidity: 10n ** 21n + BigInt(i),
    tickLower: -600 - 60 * i,
    tickUpper: 600 + 60 * i,
    amountUsd: 5n * 10n ** 18n * BigInt(i + 1),
    ...overrides,
  };
}

/** A batch of V3 rows only, checkpointed at the last of `blockNumbers`, listing those blocks. */
export function v3Batch(
  blockNumbers: bigint[],
  rows: Pick<RangeBatch, "v3Prices" | "v3Ticks" | "liquidityEvents">,
  pairs: Pair[] = V3_PAIRS,
): RangeBatch {
  const last = blockNumbers[blockNumbers.length - 1] ?? 0n;
  return {
    checkpoint: { blockNumber: last, blockHash: hash(last) },
    blocks: blockNumbers.map((n) => ({
      number: n,
      hash: hash(n),
      parentHash: hash(n - 1n),
      timestamp: T0 + Number(n) * 3,
    })),
    pairs,
    reserves: [],
    trades: [],
    ...rows,
  };
}

/** Everything the V3 reads answer, for comparing a store's state before and after a change. */
export async function readV3State(store: Store) {
  return {
    prices: await store.listV3Prices("bsc"),
    pricesSince: await store.listV3Prices("bsc", 101n),
    ticks: await store.listV3Ticks("bsc"),
    ticksWithLeft: await store.listV3Ticks("bsc", 0n),
    ticksSince: await store.listV3Ticks("bsc", 101n),
    events: await store.listLiquidityEvents("bsc", { fromTimestamp: 0, limit: 10_000 }),
  };
}

/** The state at `block` the rows describe: the newest row at or below it of each key. */
export function newestAt<T extends { blockNumber: bigint }>(
  rows: readonly T[],
  block: bigint,
  key: (row: T) => string,
): Map<string, T> {
  const newest = new Map<string, T>();
  for (const row of rows) {
    if (row.blockNumber > block) continue;
    const kept = newest.get(key(row));
    if (kept === undefined || kept.blockNumber < row.blockNumber) newest.set(key(row), row);
  }
  return newest;
}
