import { expect, test } from "vitest";
import type { Address, Trade } from "../../src/domain/types.js";
import {
  CANDLE_SERIES,
  candleTime,
  candleTrade,
  createRandom,
  TOKEN_A,
  TOKEN_B,
} from "../support/candleFixtures.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { expectCandlesEqualRecompute, recomputeCandles } from "../support/recomputeCandles.js";
import { describeStores } from "../support/storeBackends.js";
import {
  addr,
  D0,
  DAY,
  HOUR,
  hash,
  makeBatch,
  POOL_A,
  POOL_B,
  range,
  withoutSeq,
} from "../support/storeFixtures.js";

describeStores("store candles", ({ fresh }) => {
  test("behavior: candles stay equal to a recompute from the stored trades through commits, re-commits, out-of-order commits, rollbacks and a prune", async () => {
    const store = await fresh();
    const random = createRandom(9);
    const expectExact = async (trades?: readonly Trade[]) =>
      expectCandlesEqualRecompute(
        store,
        "bsc",
        trades ?? (await listAllTrades(store, "bsc", 0)),
        CANDLE_SERIES,
      );
    // 600 trades over blocks 0..398 (three days), committed in four ranges: the appending path.
    const trades = Array.from({ length: 600 }, (_, i) => candleTrade(i, random));
    for (const [from, to] of [
      [0n, 99n],
      [100n, 199n],
      [200n, 299n],
      [300n, 399n],
    ] as const) {
      await store.commitRange(
        "bsc",
        makeBatch(
          trades.filter((t) => t.blockNumber >= from && t.blockNumber <= to),
          range(from, to),
        ),
      );
      await expectExact();
    }
    const stored = await listAllTrades(store, "bsc", 0);
    expect(withoutSeq(stored)).toEqual(
      [...trades].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.txIndex - b.txIndex),
    );
    expect(await expectExact()).toBeGreaterThan(1_000);
    // Every shape is there, including trades without a price and without marks.
    const days = await store.listCandles("bsc", {
      subject: { kind: "token", token: TOKEN_A },
      interval: 86_400,
      fromTimestamp: 0,
      limit: 10,
    });
    expect(days.map((d) => d.start)).toEqual([D0, D0 + DAY, D0 + 2 * DAY]);
    expect(trades.some((t) => t.marks === undefined)).toBe(true);

    // A re-commit of blocks 150..220 where transactions changed (prices, amounts, a block) and
    // new ones came: the buckets it touches are rebuilt from the stored trades.
    const changed = trades
      .filter((t) => t.blockNumber >= 150n && t.blockNumber <= 220n)
      .map((t, i) => {
        if (t.marks === undefined || i % 4 !== 0) return t;
        if (i % 8 === 0) return { ...t, marks: { ...t.marks, priceInUsd: 10n ** 30n, priceOutUsd: 1n } };
        return { ...t, blockNumber: 219n, timestamp: candleTime(219n), txIndex: 10 + i };
      });
    changed.push(
      candleTrade(700, random, { blockNumber: 151n }),
      candleTrade(701, random, { blockNumber: 151n }),
    );
    await store.commitRange("bsc", makeBatch(changed, range(150n, 220n)));
    await expectExact();
    // Trades committed below the newest stored one, in blocks no range held: rebuilt, not appended.
    await store.commitRange(
      "bsc",
      makeBatch([candleTrade(702, random, { blockNumber: 51n, txIndex: 0 })], [51n]),
    );
    await expectExact();

    // A spike at the top of the last day: the rollback must take it out of the day's high.
    const spike = candleTrade(703, random, { blockNumber: 401n, txIndex: 0, logIndex: 0 });
    const spiked: Trade = {
      ...spike,
      tokenIn: TOKEN_A,
      tokenOut: TOKEN_B,
      pools: [POOL_A],
      marks: {
        priceInUsd: 10n ** 40n,
        priceOutUsd: 1n,
        native: undefined,
        hops: [{ zeroForOne: true, amountIn: spike.amountIn, amountOut: spike.amountOut }],
      },
    };
    await store.commitRange("bsc", makeBatch([spiked], [401n]));
    await expectExact();
    const lastDay = { subject: { kind: "token" as const, token: TOKEN_A }, interval: 86_400 as const };
    const dayOf = async () =>
      (await store.listCandles("bsc", { ...lastDay, fromTimestamp: D0 + 2 * DAY, limit: 1 }))[0]!;
    expect((await dayOf()).high).toBe(10n ** 40n);
    await store.rollback("bsc", { blockNumber: 400n, blockHash: hash(400n) });
    await expectExact();
    expect((await dayOf()).high).toBeLessThan(10n ** 40n);
    expect((await dayOf()).low).toBeGreaterThan(1n);
    // Down across many buckets of every width.
    await store.rollback("bsc", { blockNumber: 250n, blockHash: hash(250n) });
    await expectExact();
    await store.commitRange(
      "bsc",
      makeBatch(
        Array.from({ length: 30 }, (_, i) => candleTrade(800 + i, random, { blockNumber: 251n + BigInt(i) })),
        range(251n, 280n),
      ),
    );
    await expectExact();

    // Another network's candles are its own.
    const eth = [
      candleTrade(900, random, { network: "eth", marks: { ...trades[0]!.marks!, priceInUsd: 5n } }),
    ];
    await store.commitRange("eth", makeBatch(eth, [7n]));
    await expectCandlesEqualRecompute(store, "eth", eth, CANDLE_SERIES);
    await expectExact();

    // Prune in the middle of day 1: day 0 goes in every width, day 1 keeps all its candles
    // whole although its first five hours of trades are deleted.
    const beforePrune = await listAllTrades(store, "bsc", 0);
    await store.prune("bsc", { tradesBefore: D0 + DAY + 5 * HOUR, blocksBelow: 0n });
    expect((await listAllTrades(store, "bsc", 0))[0]!.timestamp).toBeGreaterThanOrEqual(D0 + DAY + 5 * HOUR);
    await expectExact(beforePrune.filter((t) => t.timestamp >= D0 + DAY));
    await expectCandlesEqualRecompute(store, "eth", eth, CANDLE_SERIES);
  });

  test("behavior: listCandles reads buckets ascending from the one holding `from`, before `to`, at most `limit`", async () => {
    const store = await fresh();
    const random = createRandom(4);
    const trades = Array.from({ length: 300 }, (_, i) => candleTrade(i, random));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 199n)));
    const subject = { kind: "pool" as const, pool: POOL_A };
    const all = recomputeCandles(trades).get(`pool:${POOL_A}:3600`)!;
    expect(all.length).toBeGreaterThan(20);
    const third = all[3]!;
    const page = await store.listCandles("bsc", {
      subject,
      interval: 3_600,
      fromTimestamp: third.start + 1_799,
      toTimestamp: all[9]!.start,
      limit: 100,
    });
    expect(page).toEqual(all.slice(3, 9));
    expect(
      await store.listCandles("bsc", { subject, interval: 3_600, fromTimestamp: third.start, limit: 2 }),
    ).toEqual(all.slice(3, 5));
    // A series nobody traded, and a range past the last bucket, are empty.
    expect(
      await store.listCandles("bsc", {
        subject: { kind: "token", token: addr(0xdead) },
        interval: 60,
        fromTimestamp: 0,
        limit: 10,
      }),
    ).toEqual([]);
    expect(
      await store.listCandles("bsc", { subject, interval: 60, fromTimestamp: D0 + 10 * DAY, limit: 10 }),
    ).toEqual([]);
    // A pool address is not a token series (an LP token of the same address is another series).
    expect(
      await store.listCandles("bsc", {
        subject: { kind: "token", token: POOL_A },
        interval: 60,
        fromTimestamp: 0,
        limit: 10,
      }),
    ).toEqual([]);
  });

  test("behavior: sumCandles sums each asked series' buckets of one interval between from and to (inclusive), as a recompute does", async () => {
    const store = await fresh();
    const random = createRandom(11);
    const trades = Array.from({ length: 400 }, (_, i) => candleTrade(i, random));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 199n)));
    const recomputed = recomputeCandles(trades);
    const hours = recomputed.get(`pool:${POOL_A}:3600`)!;
    expect(hours.length).toBeGreaterThan(10);
    const [from, to] = [hours[2]!.start, hours[8]!.start];
    const expected = (key: string) => {
      const inRange = (recomputed.get(key) ?? []).filter((c) => c.start >= from && c.start <= to);
      if (inRange.length === 0) return undefined;
      return {
        volume: inRange.reduce((sum, c) => sum + c.volume, 0n),
        quoteVolume: inRange.reduce((sum, c) => sum + c.quoteVolume, 0n),
        volumeUsd: inRange.reduce((sum, c) => sum + c.volumeUsd!, 0n),
        tradeCount: inRange.reduce((sum, c) => sum + c.tradeCount, 0),
        // The range's price extremes: the highest high and the lowest low of its buckets.
        high: inRange.reduce<bigint | undefined>(
          (max, c) => (c.high !== undefined && (max === undefined || c.high > max) ? c.high : max),
          undefined,
        ),
        low: inRange.reduce<bigint | undefined>(
          (min, c) => (c.low !== undefined && (min === undefined || c.low < min) ? c.low : min),
          undefined,
        ),
      };
    };
    const pools = await store.sumCandles("bsc", {
      kind: "pool",
      subjects: [POOL_A, POOL_B, addr(0xdead)],
      interval: 3_600,
      fromTimestamp: from,
      toTimestamp: to,
    });
    // A series without a bucket in the range is absent; the others are exact.
    expect([...pools.keys()].sort()).toEqual([POOL_A, POOL_B].sort());
    expect(pools.get(POOL_A)).toEqual(expected(`pool:${POOL_A}:3600`));
    expect(pools.get(POOL_B)).toEqual(expected(`pool:${POOL_B}:3600`));
    expect(pools.get(POOL_A)!.volumeUsd).toBeGreaterThan(0n);
    const tokens = await store.sumCandles("bsc", {
      kind: "token",
      subjects: [TOKEN_A, POOL_A],
      interval: 3_600,
      fromTimestamp: from,
      toTimestamp: to,
    });
    expect([...tokens.keys()]).toEqual([TOKEN_A]);
    expect(tokens.get(TOKEN_A)).toEqual(expected(`token:${TOKEN_A}:3600`));
    // More series than one statement reads: chunked, same answer.
    const many = [...Array.from({ length: 1_200 }, (_, i) => addr(0x10000 + i)), POOL_B];
    const chunked = await store.sumCandles("bsc", {
      kind: "pool",
      subjects: many,
      interval: 3_600,
      fromTimestamp: from,
      toTimestamp: to,
    });
    expect([...chunked]).toEqual([[POOL_B, expected(`pool:${POOL_B}:3600`)]]);
    await expect(
      store.sumCandles("bsc", {
        kind: "pool",
        subjects: [],
        interval: 120 as 60,
        fromTimestamp: 0,
        toTimestamp: 1,
      }),
    ).rejects.toThrow("Invalid candle interval.");
    // Without subjects: every series of the kind, by time over the hourly index, the same totals.
    for (const kind of ["pool", "token"] as const) {
      const byTime = await store.sumCandles("bsc", {
        kind,
        interval: 3_600,
        fromTimestamp: from,
        toTimestamp: to,
      });
      const every = [...recomputed.keys()]
        .filter((key) => key.startsWith(`${kind}:`) && key.endsWith(":3600"))
        .map((key) => key.split(":")[1] as Address);
      const expectedAll = new Map(
        every.flatMap((subject) => {
          const total = expected(`${kind}:${subject}:3600`);
          return total === undefined ? [] : [[subject, total] as const];
        }),
      );
      expect(expectedAll.size).toBeGreaterThan(2);
      expect(byTime).toEqual(expectedAll);
    }
    await expect(
      store.sumCandles("bsc", { kind: "pool", interval: 60, fromTimestamp: from, toTimestamp: to }),
    ).rejects.toThrow("Invalid candle interval.");
  });

  test("error: listCandles refuses an unknown interval, a limit outside 1..10,000 and a negative time", async () => {
    const store = await fresh();
    const query = {
      subject: { kind: "token" as const, token: TOKEN_A },
      interval: 60 as const,
      fromTimestamp: 0,
    };
    for (const limit of [0, 10_001, 1.5]) {
      await expect(store.listCandles("bsc", { ...query, limit })).rejects.toThrow(
        "Invalid candle page limit.",
      );
    }
    await expect(store.listCandles("bsc", { ...query, interval: 120 as 60, limit: 1 })).rejects.toThrow(
      "Invalid candle interval.",
    );
    await expect(store.listCandles("bsc", { ...query, fromTimestamp: -1, limit: 1 })).rejects.toThrow(
      "Invalid candle time range.",
    );
    expect(await store.listCandles("bsc", { ...query, limit: 10_000 })).toEqual([]);
  });

  test("error: a failed commit leaves the candles untouched", async () => {
    const store = await fresh();
    const random = createRandom(5);
    const trades = Array.from({ length: 60 }, (_, i) => candleTrade(i, random));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 39n)));
    // The same trade twice in one batch breaks the unique key: nothing of that commit stays.
    const next = candleTrade(100, random, { blockNumber: 41n });
    await expect(store.commitRange("bsc", makeBatch([next, next], [41n]))).rejects.toThrow();
    await expectCandlesEqualRecompute(store, "bsc", trades, CANDLE_SERIES);
  });
});
