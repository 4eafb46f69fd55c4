import { expect, test } from "vitest";
import type { Address, Trade } from "../../src/domain/types.js";
import { candleTrade, createRandom, TOKEN_A } from "../support/candleFixtures.js";
import { listAllTrades } from "../support/listAllTrades.js";
import type { CandleSeries } from "../support/recomputeCandles.js";
import { describeStores } from "../support/storeBackends.js";
import {
  ALL_DAYS,
  addr,
  byDay,
  D0,
  DAY,
  DAY0,
  dayTrade,
  hash,
  makeBatch,
  makeTrade,
  POOL_A,
  readAllPages,
  recomputeDays,
  TRADERS,
} from "../support/storeFixtures.js";
import { price, V3_PAIRS, V3_POOL_A, V3_POOL_B, v3Batch } from "../support/v3Fixtures.js";

describeStores("store migrations", ({ backend, open, fresh }) => {
  test("behavior: kind names the backend", async () => {
    const store = await fresh();
    expect(store.kind).toBe(backend.name.startsWith("sqlite") ? "sqlite" : "postgres");
  });

  test("behavior: migrate twice is a no-op and keeps the data", async () => {
    const db = backend.newDatabase();
    const store = open(db);
    await store.migrate();
    await store.commitRange("bsc", makeBatch([makeTrade(0, 10n)], [10n]));
    await store.migrate();
    expect(await listAllTrades(store, "bsc", 0)).toHaveLength(1);
    if (backend.shared) {
      // A second process opening the same database finds everything applied.
      const again = open(db);
      await again.migrate();
      expect(await again.getCheckpoint("bsc")).toEqual({ blockNumber: 10n, blockHash: hash(10n) });
    }
  });

  test.skipIf(!backend.shared)(
    "behavior: two stores migrating one database at once both succeed",
    async () => {
      const db = backend.newDatabase();
      const [a, b] = [open(db), open(db)];
      await Promise.all([a.migrate(), b.migrate(), a.migrate()]);
      await a.commitRange("bsc", makeBatch([makeTrade(0, 5n)], [5n]));
      expect(await listAllTrades(b, "bsc", 0)).toHaveLength(1);
    },
  );

  test.skipIf(!backend.shared)(
    "behavior: migration 5 keeps token candles' USD volume and marks older pool candles' USD volume unknown, so no sum over them is wrong",
    async () => {
      const db = backend.newDatabase();
      const start = D0;
      await db.seedV4Candles!([
        { kind: 0, subject: TOKEN_A, width: 3_600, start, volume: 5n, quoteVolume: 2n ** 200n + 7n },
        { kind: 1, subject: POOL_A, width: 3_600, start, volume: 5n, quoteVolume: 9n },
      ]);
      const store = open(db);
      await store.migrate();
      const read = (subject: CandleSeries["subject"]) =>
        store.listCandles("bsc", { subject, interval: 3_600, fromTimestamp: start, limit: 5 });
      expect((await read({ kind: "token", token: TOKEN_A }))[0]!.volumeUsd).toBe(2n ** 200n + 7n);
      expect((await read({ kind: "pool", pool: POOL_A }))[0]!.volumeUsd).toBeUndefined();
      // A new trade appended to the old pool bucket keeps it unknown; a bucket of its own is exact.
      const random = createRandom(12);
      const later = candleTrade(1, random, { blockNumber: 1n });
      const trade: Trade = {
        ...later,
        timestamp: start + 60,
        pools: [POOL_A],
        marks: {
          priceInUsd: 10n ** 18n,
          priceOutUsd: 10n ** 18n,
          native: undefined,
          hops: [{ zeroForOne: true, amountIn: 3n, amountOut: 4n }],
        },
      };
      const next: Trade = { ...trade, txHash: hash(0x7777), blockNumber: 2n, timestamp: start + 3_600 };
      await store.commitRange("bsc", makeBatch([trade, next], [1n, 2n]));
      const [old, fresh] = await read({ kind: "pool", pool: POOL_A });
      expect(old!.volumeUsd).toBeUndefined();
      expect(old!.tradeCount).toBe(2);
      expect(fresh!.volumeUsd).toBe(next.volumeUsd);
      // Token rows were not rewritten: old and appended alike read their USD value as quote volume.
      const tokenRows = (
        await Promise.all(
          [TOKEN_A, trade.tokenIn, trade.tokenOut]
            .filter((token) => token !== "")
            .map((token) => read({ kind: "token", token: token as Address })),
        )
      ).flat();
      expect(tokenRows.length).toBeGreaterThan(1);
      for (const row of tokenRows) expect(row.volumeUsd).toBe(row.quoteVolume);
      const sum = (toTimestamp: number) =>
        store.sumCandles("bsc", {
          kind: "pool",
          subjects: [POOL_A],
          interval: 3_600,
          fromTimestamp: start,
          toTimestamp,
        });
      expect((await sum(start + 3_600)).get(POOL_A)!.volumeUsd).toBeUndefined();
    },
  );

  test.skipIf(!backend.shared)(
    "behavior: migration 9 leaves a version-8 store's V3 pools and prices as they were (balances and creation unknown); new rows keep both exactly through a rollback and a prune",
    async () => {
      const db = backend.newDatabase();
      const old = [price(V3_POOL_A, 10n, -5), price(V3_POOL_B, 10n, 7)];
      await db.seedV8V3!(V3_PAIRS, old);
      const store = open(db);
      await store.migrate();
      // Unknown stays unknown: no `balances`, no `created` key at all.
      expect(await store.listPairs("bsc")).toStrictEqual(V3_PAIRS);
      expect(await store.listV3Prices("bsc")).toStrictEqual(old);
      const created = { blockNumber: 3n, timestamp: 1_700_000_000, txHash: `0x${"c".repeat(64)}` as const };
      const held = (block: bigint, balance0: bigint) => ({
        ...price(V3_POOL_A, block, -6),
        balances: { balance0, balance1: 2n ** 200n + block },
      });
      await store.commitRange("bsc", {
        ...v3Batch([11n], { v3Prices: [held(11n, 5n)] }),
        pairs: [{ ...V3_PAIRS[0]!, created }, V3_PAIRS[1]!],
      });
      await store.commitRange("bsc", v3Batch([12n], { v3Prices: [held(12n, 2n ** 255n)] }));
      expect((await store.listV3Prices("bsc")).find((p) => p.pool === V3_POOL_A)).toStrictEqual(
        held(12n, 2n ** 255n),
      );
      // A pair written again without its creation keeps it.
      expect((await store.listPairs("bsc")).find((p) => p.address === V3_POOL_A)).toStrictEqual({
        ...V3_PAIRS[0]!,
        created,
      });
      // A rollback to 11 brings back 11's balances; a prune below 12 keeps them as the newest.
      await store.rollback("bsc", { blockNumber: 11n, blockHash: `0x${"0".repeat(63)}b` });
      expect((await store.listV3Prices("bsc")).find((p) => p.pool === V3_POOL_A)).toStrictEqual(
        held(11n, 5n),
      );
      await store.prune("bsc", { tradesBefore: 0, blocksBelow: 12n });
      expect(await store.listV3Prices("bsc")).toStrictEqual([held(11n, 5n), old[1]!]);
    },
  );

  test.skipIf(!backend.shared)(
    "behavior: migration 6 leaves a version-5 store's V2 pairs reading exactly as before, and they and new V3 pools upsert side by side",
    async () => {
      const db = backend.newDatabase();
      const v2 = makeBatch([], [1n]).pairs;
      await db.seedV5Pairs!(v2);
      const store = open(db);
      await store.migrate();
      expect(await store.listPairs("bsc")).toStrictEqual(v2);
      await store.commitRange("bsc", { ...makeBatch([], [2n]), pairs: [...v2, ...V3_PAIRS] });
      const pairs = await store.listPairs("bsc");
      expect(pairs.filter((p) => p.v3 === undefined)).toStrictEqual(v2);
      expect(pairs.filter((p) => p.v3 !== undefined)).toStrictEqual(V3_PAIRS);
    },
  );

  test.skipIf(!backend.shared)(
    "behavior: migrations 2 and 3 backfill the day aggregates of a version-1 store exactly and keep its trades",
    async () => {
      const db = backend.newDatabase();
      const trades = [
        ...Array.from({ length: 100 }, (_, i) => dayTrade(i)),
        // Sums a double cannot hold: 2^255 twice in one day, and 10^18 + 1 next to 2^200.
        dayTrade(200, { blockNumber: 3n, txIndex: 7, volumeUsd: 2n ** 255n, tracked: true }),
        dayTrade(201, { blockNumber: 4n, txIndex: 7, volumeUsd: 2n ** 255n }),
        dayTrade(202, { blockNumber: 30n, txIndex: 7, volumeUsd: 10n ** 18n + 1n }),
        ...Array.from({ length: 10 }, (_, i) => dayTrade(300 + i, { network: "eth", blockNumber: 900n })),
      ];
      await db.seedV1!(trades);
      const store = open(db);
      await store.migrate();
      const bsc = trades.filter((t) => t.network === "bsc");
      const eth = trades.filter((t) => t.network === "eth");
      expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(recomputeDays(bsc));
      expect(await store.listDayAggregates("eth", ...ALL_DAYS)).toEqual(recomputeDays(eth));
      expect((await store.listDayAggregates("bsc", DAY0, DAY0))[0]!.volumeUsd).toBe(
        bsc.filter((t) => t.timestamp < D0 + DAY).reduce((sum, t) => sum + t.volumeUsd, 0n),
      );

      // The backfilled rows are maintained from then on, including day_traders' counts.
      await store.commitRange("bsc", makeBatch([{ ...trades[0]!, sender: addr(0x5d1) }], [0n]));
      await store.rollback("bsc", { blockNumber: 20n, blockHash: hash(20n) });
      expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(
        recomputeDays(await listAllTrades(store, "bsc", 0)),
      );
      // And the new indexes serve pages over the old rows.
      const bySender = await readAllPages(store, "bsc", { fromTimestamp: 0, sender: TRADERS[2]!, limit: 4 });
      expect(bySender.map((t) => t.txHash)).toEqual(
        (await listAllTrades(store, "bsc", 0)).filter((t) => t.sender === TRADERS[2]).map((t) => t.txHash),
      );
      // Migration 3: the old rows (one trade per transaction) read back with log index 0, and
      // new trades never reuse a seq.
      const migrated = await listAllTrades(store, "bsc", 0);
      expect(migrated.filter((t) => t.txHash !== trades[0]!.txHash).every((t) => t.logIndex === 0)).toBe(
        true,
      );
      const maxSeq = migrated.reduce((max, t) => (t.seq > max ? t.seq : max), 0n);
      await store.commitRange("bsc", makeBatch([makeTrade(900, 40n, { logIndex: 3 })], [40n]));
      const added = (await listAllTrades(store, "bsc", 0)).find((t) => t.txHash === hash(0x1000 + 900))!;
      expect(added.logIndex).toBe(3);
      expect(added.seq).toBeGreaterThan(maxSeq);
    },
  );
});
