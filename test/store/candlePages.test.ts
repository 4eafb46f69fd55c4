import { expect, test } from "vitest";
import type { Address, Trade } from "../../src/domain/types.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import { candleTime, createRandom, TOKEN_A, TOKEN_B } from "../support/candleFixtures.js";
import { recomputeCandles } from "../support/recomputeCandles.js";
import { addr, makeBatch, makeTrade, range } from "../support/storeFixtures.js";

// SQLite reads every series' hourly rows in pages of 2,000 (createSqliteCandles: no per-call
// iterator, see openSqliteDatabase): a window with more rows than a page must sum them all.
test("behavior: sumCandles without subjects sums every series when the window holds more hourly rows than one page", async () => {
  const store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  const random = createRandom(5);
  // 2,500 pools, one trade each, over 40 blocks (under 7 hours): 2,500 hourly pool rows at least.
  const trades: Trade[] = Array.from({ length: 2_500 }, (_, i) => {
    const blockNumber = BigInt(i % 40);
    const amountIn = random.amount();
    const amountOut = random.amount();
    return makeTrade(i, blockNumber, {
      timestamp: candleTime(blockNumber),
      txIndex: Math.floor(i / 40),
      logIndex: Math.floor(i / 40),
      tokenIn: TOKEN_A,
      tokenOut: TOKEN_B,
      amountIn,
      amountOut,
      volumeUsd: random.amount(),
      pools: [addr(0x30000 + i)],
      marks: {
        priceInUsd: random.price(),
        priceOutUsd: random.price(),
        native: undefined,
        hops: [{ zeroForOne: true, amountIn, amountOut }],
      },
    });
  });
  await store.commitRange("bsc", makeBatch(trades, range(0n, 39n)));
  const recomputed = recomputeCandles(trades);
  const from = candleTime(0n) - (candleTime(0n) % 3_600);
  const to = candleTime(39n);
  const byTime = await store.sumCandles("bsc", {
    kind: "pool",
    interval: 3_600,
    fromTimestamp: from,
    toTimestamp: to,
  });
  const pools = [...recomputed.keys()]
    .filter((key) => key.startsWith("pool:") && key.endsWith(":3600"))
    .map((key) => key.split(":")[1] as Address);
  expect(pools.length).toBe(2_500);
  // Each series' total equals the one read by subject (the chunked read, no paging).
  const bySubject = await store.sumCandles("bsc", {
    kind: "pool",
    subjects: pools,
    interval: 3_600,
    fromTimestamp: from,
    toTimestamp: to,
  });
  expect(byTime.size).toBe(2_500);
  expect(byTime).toEqual(bySubject);
  for (const pool of pools) {
    const candles = recomputed.get(`pool:${pool}:3600`)!;
    expect(byTime.get(pool)!.tradeCount).toBe(candles.reduce((sum, c) => sum + c.tradeCount, 0));
  }
  await store.close();
});
