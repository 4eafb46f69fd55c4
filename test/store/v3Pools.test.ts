import { expect, test } from "vitest";
import type { Pair, V3PoolPrice, V3TickLiquidity } from "../../src/domain/types.js";
import { describeStores } from "../support/storeBackends.js";
import { addr, hash, makeBatch, POOL_A, T0 } from "../support/storeFixtures.js";
import {
  liquidityEvent,
  MAX_UINT128,
  MAX_UINT160,
  MIN_INT128,
  newestAt,
  price,
  readV3State,
  tickRow,
  V3_PAIRS,
  V3_POOL_A,
  V3_POOL_B,
  v3Batch,
} from "../support/v3Fixtures.js";

const tickKey = (t: V3TickLiquidity) => `${t.pool}:${t.tick}`;
const byPoolTick = (a: V3TickLiquidity, b: V3TickLiquidity) =>
  a.pool === b.pool ? a.tick - b.tick : a.pool < b.pool ? -1 : 1;

/** The initialized ticks at `block` the rows describe, as listV3Ticks(network) answers them. */
const ticksAt = (rows: readonly V3TickLiquidity[], block: bigint) =>
  [...newestAt(rows, block, tickKey).values()].filter((t) => t.liquidityGross !== 0n).sort(byPoolTick);
const pricesAt = (rows: readonly V3PoolPrice[], block: bigint) =>
  [...newestAt(rows, block, (p) => p.pool).values()].sort((a, b) => (a.pool < b.pool ? -1 : 1));

describeStores("store V3 pools", ({ fresh }) => {
  test("behavior: pool specs, prices and ticks round-trip every field exactly (uint160/uint128 maxima, negative int128 and ticks), and V2 pairs read as before", async () => {
    const store = await fresh();
    const v2 = makeBatch([], [99n]);
    await store.commitRange("bsc", v2);
    const prices: V3PoolPrice[] = [
      {
        pool: V3_POOL_A,
        blockNumber: 100n,
        logIndex: 7,
        sqrtPriceX96: MAX_UINT160,
        tick: -887_272,
        liquidity: MAX_UINT128,
      },
      {
        pool: V3_POOL_B,
        blockNumber: 100n,
        logIndex: 0,
        sqrtPriceX96: 4_295_128_739n,
        tick: 887_271,
        liquidity: 0n,
      },
    ];
    const ticks = [
      tickRow(V3_POOL_A, 100n, -887_220, MIN_INT128, MAX_UINT128),
      tickRow(V3_POOL_A, 100n, 887_220, 2n ** 127n - 1n, MAX_UINT128),
      tickRow(V3_POOL_A, 100n, 0, -1n, 1n),
      tickRow(V3_POOL_B, 100n, -10, -(10n ** 30n) - 3n, 10n ** 30n + 3n),
    ];
    await store.commitRange("bsc", v3Batch([100n], { v3Prices: prices, v3Ticks: ticks }));

    expect(await store.listV3Prices("bsc")).toEqual(prices);
    expect(await store.listV3Ticks("bsc")).toEqual([...ticks].sort(byPoolTick));
    // V3 pools carry their spec; the V2 pair has no `v3` key at all (strict equality).
    const pairs = await store.listPairs("bsc");
    expect(pairs).toStrictEqual([v2.pairs[0]!, ...V3_PAIRS].sort((a, b) => (a.address < b.address ? -1 : 1)));
    expect(pairs.find((p) => p.address === POOL_A)).not.toHaveProperty("v3");
    // A pair upserted from V3 back to a plain pair loses its spec (the columns follow the row).
    const { v3: _v3, ...plain }: Pair = V3_PAIRS[0]!;
    await store.commitRange("bsc", { ...v3Batch([100n], {}), pairs: [plain] });
    expect((await store.listPairs("bsc")).find((p) => p.address === V3_POOL_A)).toStrictEqual(plain);
    // Other networks see nothing.
    expect(await store.listV3Prices("eth")).toEqual([]);
    expect(await store.listV3Ticks("eth", 0n)).toEqual([]);
  });

  test("behavior: a rollback across price and tick changes leaves every read exactly as before those blocks (a tick created above the ancestor goes, a changed one returns to its value, a removed one comes back)", async () => {
    const store = await fresh();
    const before = {
      v3Prices: [price(V3_POOL_A, 100n, -10), price(V3_POOL_A, 101n, -12, 3), price(V3_POOL_B, 100n, 40)],
      v3Ticks: [
        tickRow(V3_POOL_A, 100n, -60, 500n, 500n),
        tickRow(V3_POOL_A, 100n, 60, -500n, 500n),
        tickRow(V3_POOL_A, 101n, 120, -70n, 70n),
        // Left before the ancestor: stays left.
        tickRow(V3_POOL_B, 100n, 10, 9n, 9n),
        tickRow(V3_POOL_B, 102n, 10, 0n, 0n),
      ],
      liquidityEvents: [liquidityEvent(0, 100n, V3_POOL_A), liquidityEvent(1, 101n, V3_POOL_A)],
    };
    await store.commitRange("bsc", v3Batch([100n, 101n, 102n], before));
    const atAncestor = await readV3State(store);
    expect(atAncestor.ticks.map((t) => t.tick)).toEqual([-60, 60, 120]);
    expect(atAncestor.ticksWithLeft.map((t) => t.tick)).toEqual([-60, 60, 120, 10]);

    await store.commitRange(
      "bsc",
      v3Batch([103n, 104n, 105n], {
        v3Prices: [price(V3_POOL_A, 103n, 50), price(V3_POOL_A, 105n, 65), price(V3_POOL_B, 104n, -3)],
        v3Ticks: [
          tickRow(V3_POOL_A, 103n, 180, -8n, 8n), // created
          tickRow(V3_POOL_A, 104n, -60, 900n, 900n), // changed
          tickRow(V3_POOL_A, 105n, -60, 1_000n, 1_000n), // changed again
          tickRow(V3_POOL_A, 104n, 120, 0n, 0n), // removed
          tickRow(V3_POOL_B, 105n, 10, 4n, 4n), // back, then rolled back again
        ],
        liquidityEvents: [liquidityEvent(2, 103n, V3_POOL_A), liquidityEvent(3, 105n, V3_POOL_B)],
      }),
    );
    const moved = await readV3State(store);
    expect(moved.prices.map((p) => p.tick)).toEqual([65, -3]);
    expect(moved.ticks.map((t) => `${t.tick}:${t.liquidityGross}`)).toEqual([
      "-60:1000",
      "60:500",
      "180:8",
      "10:4",
    ]);
    expect(moved.ticksSince.map((t) => `${t.tick}:${t.liquidityGross}`)).toEqual([
      "-60:1000",
      "120:0",
      "180:8",
      "10:4",
    ]);
    expect(moved.events).toHaveLength(4);

    const ancestor = { blockNumber: 102n, blockHash: hash(102n) };
    await store.rollback("bsc", ancestor);
    expect(await readV3State(store)).toEqual(atAncestor);
    expect(await store.getCheckpoint("bsc")).toEqual(ancestor);
    // A second rollback to an earlier block is exact too.
    await store.rollback("bsc", { blockNumber: 100n, blockHash: hash(100n) });
    expect(await store.listV3Prices("bsc")).toEqual(pricesAt(before.v3Prices, 100n));
    expect(await store.listV3Ticks("bsc")).toEqual(ticksAt(before.v3Ticks, 100n));
    expect(await store.listV3Ticks("bsc", 101n)).toEqual([]);
  });

  test("behavior: re-committing a range is idempotent, and a re-committed block keeps exactly the batch's liquidity events", async () => {
    const store = await fresh();
    const rows = {
      v3Prices: [price(V3_POOL_A, 100n, 1), price(V3_POOL_A, 101n, 2), price(V3_POOL_B, 101n, 3)],
      v3Ticks: [tickRow(V3_POOL_A, 100n, 60, 5n, 5n), tickRow(V3_POOL_A, 101n, 60, -5n, 15n)],
      liquidityEvents: [
        liquidityEvent(0, 100n, V3_POOL_A),
        liquidityEvent(1, 101n, V3_POOL_A),
        liquidityEvent(2, 101n, V3_POOL_B),
      ],
    };
    await store.commitRange("bsc", v3Batch([100n, 101n], rows));
    const once = await readV3State(store);
    await store.commitRange("bsc", v3Batch([100n, 101n], rows));
    expect(await readV3State(store)).toEqual(once);
    // The same block re-read with one event fewer (and one changed) holds exactly the new ones.
    const changed = { ...rows.liquidityEvents[2]!, amountUsd: 1n };
    await store.commitRange("bsc", v3Batch([101n], { liquidityEvents: [changed] }));
    expect((await readV3State(store)).events).toEqual([rows.liquidityEvents[0], changed]);
    // A batch without liquidity events leaves the stored ones alone.
    await store.commitRange("bsc", v3Batch([100n, 101n], { v3Prices: rows.v3Prices }));
    expect((await readV3State(store)).events).toEqual([rows.liquidityEvents[0], changed]);
  });

  test("behavior: prune keeps each pool's and tick's newest row at or below the line: current reads, and rollbacks to the line, read the same; ticks that left below it go whole", async () => {
    const store = await fresh();
    const prices = [
      price(V3_POOL_A, 2n, 1),
      price(V3_POOL_A, 4n, 2),
      price(V3_POOL_A, 8n, 3),
      price(V3_POOL_B, 1n, 4),
      price(V3_POOL_B, 3n, 5),
    ];
    const ticks = [
      tickRow(V3_POOL_A, 1n, -60, 1n, 1n),
      tickRow(V3_POOL_A, 3n, -60, 2n, 2n),
      tickRow(V3_POOL_A, 7n, -60, 3n, 3n),
      tickRow(V3_POOL_A, 2n, 60, 4n, 4n),
      tickRow(V3_POOL_A, 4n, 60, 0n, 0n), // left below the line: goes whole
      tickRow(V3_POOL_A, 1n, 120, 5n, 5n),
      tickRow(V3_POOL_A, 3n, 120, 0n, 0n), // left, then came back above the line
      tickRow(V3_POOL_A, 9n, 120, 6n, 6n),
      tickRow(V3_POOL_B, 6n, 10, 0n, 0n), // left above the line: kept so followers learn it
    ];
    const events = [1n, 4n, 5n, 9n].map((n, i) => liquidityEvent(i, n, V3_POOL_A));
    await store.commitRange(
      "bsc",
      v3Batch([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n], {
        v3Prices: prices,
        v3Ticks: ticks,
        liquidityEvents: events,
      }),
    );
    const current = await readV3State(store);

    await store.prune("bsc", { tradesBefore: T0 + 5 * 3, blocksBelow: 5n });
    const pruned = await readV3State(store);
    expect(pruned.prices).toEqual(current.prices);
    expect(pruned.ticks).toEqual(current.ticks);
    expect(pruned.ticksSince).toEqual(current.ticksSince);
    expect(pruned.ticksWithLeft.map((t) => `${t.tick}@${t.blockNumber}`)).toEqual(["-60@7", "120@9", "10@6"]);
    expect(pruned.events).toEqual(events.slice(2));

    // Every block from the line on is still exactly readable: roll back to the line.
    await store.rollback("bsc", { blockNumber: 5n, blockHash: hash(5n) });
    expect(await store.listV3Prices("bsc")).toEqual(pricesAt(prices, 5n));
    expect(await store.listV3Ticks("bsc")).toEqual(ticksAt(ticks, 5n));
    expect((await store.listV3Ticks("bsc", 0n)).map((t) => `${t.tick}@${t.blockNumber}`)).toEqual(["-60@3"]);
  });

  test("behavior: commit time of 10,000 tick rows (printed)", async () => {
    const store = await fresh();
    const ticks: V3TickLiquidity[] = [];
    for (let i = 0; i < 10_000; i++) {
      const pool = addr(0x4000 + (i % 50));
      ticks.push(
        tickRow(
          pool,
          1_000n + BigInt(i % 20),
          (i - 5_000) * 60,
          -(2n ** 100n) + BigInt(i),
          2n ** 100n + BigInt(i),
        ),
      );
    }
    const started = performance.now();
    await store.commitRange("bsc", v3Batch([1_019n], { v3Ticks: ticks }, []));
    const elapsed = performance.now() - started;
    console.log(`[${store.kind}] commitRange of 10,000 tick rows: ${elapsed.toFixed(1)} ms`);
    expect(await store.listV3Ticks("bsc")).toHaveLength(10_000);
    // A re-commit of the same rows (all conflicts) is timed too: what a retried range costs.
    const again = performance.now();
    await store.commitRange("bsc", v3Batch([1_019n], { v3Ticks: ticks }, []));
    console.log(
      `[${store.kind}] re-commit of the same 10,000 tick rows: ${(performance.now() - again).toFixed(1)} ms`,
    );
    expect(await store.listV3Ticks("bsc", 1_019n)).toHaveLength(500);
  });
});
