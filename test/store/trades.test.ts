import { expect, test } from "vitest";
import type { TradePageQuery } from "../../src/domain/market.js";
import type { TokenRef, Trade, TradeHop } from "../../src/domain/types.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { RangeBatch, StoredTrade } from "../../src/store/types.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { describeStores } from "../support/storeBackends.js";
import {
  ALL_DAYS,
  addr,
  D0,
  DAY,
  HOUR,
  hash,
  makeBatch,
  makeTrade,
  POOL_A,
  POOL_B,
  POOL_C,
  range,
  readAllPages,
  recomputeDays,
  T0,
  TRADERS,
  withoutSeq,
} from "../support/storeFixtures.js";

describeStores("store trades", ({ backend, fresh }) => {
  test("behavior: commitRange then reads back every field exactly", async () => {
    const store = await fresh();
    const max256 = 2n ** 256n - 1n;
    const bigBlock = 2n ** 60n + 7n;
    const trades: Trade[] = [
      makeTrade(0, bigBlock, {
        timestamp: 1_900_000_000,
        txIndex: 3,
        tokenIn: "",
        amountIn: 2n ** 255n,
        amountOut: max256,
        volumeUsd: max256,
        pools: [POOL_C, POOL_A, POOL_B],
      }),
      makeTrade(1, bigBlock + 1n, {
        tokenOut: "",
        amountIn: 1n,
        amountOut: 0n,
        volumeUsd: 0n,
        tracked: false,
        pools: [],
      }),
    ];
    const batch: RangeBatch = {
      checkpoint: { blockNumber: bigBlock + 1n, blockHash: hash(0xbeef) },
      blocks: [{ number: bigBlock, hash: hash(1), parentHash: hash(2), timestamp: 1_900_000_000 }],
      pairs: [
        {
          address: POOL_A,
          dex: "uniswap-v2",
          factory: addr(0xf1),
          token0: addr(1),
          token1: addr(2),
          feeBps: 30,
        },
        {
          address: POOL_B,
          dex: "pancake-v2",
          factory: addr(0xf2),
          token0: addr(3),
          token1: addr(4),
          feeBps: 25,
        },
      ],
      reserves: [
        { pair: POOL_A, blockNumber: bigBlock, logIndex: 9, reserve0: max256, reserve1: 2n ** 112n - 1n },
      ],
      trades,
    };
    await store.commitRange("bsc", batch);

    const stored = await listAllTrades(store, "bsc", 0);
    expect(withoutSeq(stored)).toEqual(
      [...trades].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.txIndex - b.txIndex),
    );
    for (const t of stored) expect(typeof t.seq).toBe("bigint");
    expect(await store.getCheckpoint("bsc")).toEqual(batch.checkpoint);
    expect(await store.listBlocks("bsc")).toEqual(batch.blocks);
    expect(await store.listPairs("bsc")).toEqual(batch.pairs);
    expect(await store.listReserves("bsc")).toEqual(batch.reserves);
    // Networks do not see each other's rows.
    expect(await store.getCheckpoint("eth")).toBeUndefined();
    expect(await listAllTrades(store, "eth", 0)).toEqual([]);
    expect(await store.listPairs("eth")).toEqual([]);
  });

  test("behavior: listTrades filters by timestamp and orders by block then txIndex", async () => {
    const store = await fresh();
    const trades = [
      makeTrade(0, 12n, { txIndex: 1 }),
      makeTrade(1, 11n, { txIndex: 0 }),
      makeTrade(2, 12n, { txIndex: 0 }),
      makeTrade(3, 10n, { txIndex: 5 }),
    ];
    await store.commitRange("bsc", makeBatch(trades, range(10n, 12n)));
    const all = await listAllTrades(store, "bsc", 0);
    expect(all.map((t) => t.txHash)).toEqual([3, 1, 2, 0].map((i) => hash(0x1000 + i)));
    const since = await listAllTrades(store, "bsc", T0 + 11 * 3);
    expect(since.map((t) => t.blockNumber)).toEqual([11n, 12n, 12n]);
    expect((await store.listBlocks("bsc", 11n)).map((b) => b.number)).toEqual([11n, 12n]);
  });

  test("behavior: re-committing the same range replaces trades and never duplicates them", async () => {
    const store = await fresh();
    const first = [makeTrade(0, 20n), makeTrade(1, 21n)];
    await store.commitRange("bsc", makeBatch(first, [20n, 21n]));
    const before = await listAllTrades(store, "bsc", 0);

    const again = [makeTrade(0, 20n, { amountIn: 777n }), makeTrade(1, 21n)];
    const batch = makeBatch(
      again,
      [20n, 21n],
      [{ pair: POOL_A, blockNumber: 21n, logIndex: 1, reserve0: 5n, reserve1: 6n }],
    );
    await store.commitRange("bsc", batch);
    await store.commitRange("bsc", { ...batch, checkpoint: { blockNumber: 21n, blockHash: hash(0x21) } });

    const after = await listAllTrades(store, "bsc", 0);
    expect(withoutSeq(after)).toEqual(again);
    expect(await store.listBlocks("bsc")).toHaveLength(2);
    expect(await store.listPairs("bsc")).toHaveLength(1);
    expect(await store.listReserves("bsc")).toEqual(batch.reserves);
    expect(await store.getCheckpoint("bsc")).toEqual({ blockNumber: 21n, blockHash: hash(0x21) });
    // A replaced trade gets a new seq, so a replica tailing by seq sees the new version.
    const maxBefore = before.map((t) => t.seq).sort((a, b) => (a < b ? -1 : 1))[before.length - 1]!;
    for (const t of after) expect(t.seq).toBeGreaterThan(maxBefore);
  });

  test("behavior: a transaction's several trades are kept apart, paged inside it, and replaced together", async () => {
    const store = await fresh();
    const tx = hash(0xa99);
    const sender = TRADERS[0]!;
    // An aggregator transaction between two plain ones: three trades of one tx, one sender.
    const split = [4, 9, 17].map((logIndex, k) =>
      makeTrade(10 + k, 31n, { txHash: tx, txIndex: 2, logIndex, sender, timestamp: D0 + HOUR }),
    );
    const trades = [
      makeTrade(0, 31n, { txIndex: 1, logIndex: 1, sender, timestamp: D0 + HOUR }),
      ...split,
      makeTrade(1, 31n, { txIndex: 3, logIndex: 20, timestamp: D0 + HOUR }),
    ];
    await store.commitRange("bsc", makeBatch(trades, [31n]));
    const stored = await listAllTrades(store, "bsc", 0);
    expect(withoutSeq(stored)).toEqual(
      [...trades].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.txIndex - b.txIndex),
    );
    // Pages of one or two trades end inside the transaction and lose nothing.
    for (const limit of [1, 2]) {
      expect(await readAllPages(store, "bsc", { fromTimestamp: 0, limit })).toEqual(stored);
    }
    expect(
      await store.listTradePage("bsc", {
        fromTimestamp: 0,
        after: { blockNumber: 31n, txIndex: 2, logIndex: 9 },
        limit: 10,
      }),
    ).toEqual(stored.slice(3));
    // One sender, however many trades: one trader that day.
    expect(await store.listDayAggregates("bsc", ...ALL_DAYS)).toEqual(recomputeDays(trades));
    expect((await store.listDayAggregates("bsc", ...ALL_DAYS))[0]!.traderCount).toBe(2);

    // A re-commit of the transaction that splits it differently replaces all its trades.
    const merged = [
      makeTrade(10, 31n, { txHash: tx, txIndex: 2, logIndex: 4, sender, timestamp: D0 + HOUR }),
    ];
    await store.commitRange("bsc", makeBatch(merged, [31n]));
    const after = withoutSeq(await listAllTrades(store, "bsc", 0));
    expect(after).toEqual([trades[0], merged[0], trades[4]]);
    expect(await store.listDayAggregates("bsc", ...ALL_DAYS)).toEqual(recomputeDays(after));
    // The same trade twice in one batch is a bug: refused whole.
    await expect(store.commitRange("bsc", makeBatch([merged[0]!, merged[0]!], [31n]))).rejects.toThrow();
    expect(withoutSeq(await listAllTrades(store, "bsc", 0))).toEqual(after);
  });

  test("behavior: a re-commit of the newest stored transaction replaces its trades, even with a trade at a later log only", async () => {
    const store = await fresh();
    const tx = hash(0xb77);
    const older = makeTrade(0, 40n, { txIndex: 1, logIndex: 1 });
    const first = makeTrade(10, 41n, { txHash: tx, txIndex: 2, logIndex: 4 });
    await store.commitRange("bsc", makeBatch([older, first], [40n, 41n]));
    // The newest stored trade is the transaction's; the batch holds it split at a later log.
    const later = makeTrade(11, 41n, { txHash: tx, txIndex: 2, logIndex: 9 });
    await store.commitRange("bsc", makeBatch([later], [41n]));
    const after = withoutSeq(await listAllTrades(store, "bsc", 0));
    expect(after).toEqual([older, later]);
    expect(await store.listDayAggregates("bsc", ...ALL_DAYS)).toEqual(recomputeDays(after));
    // Trades after every stored transaction are only added.
    const next = makeTrade(12, 41n, { txIndex: 3, logIndex: 12 });
    await store.commitRange("bsc", makeBatch([next], [41n]));
    expect(withoutSeq(await listAllTrades(store, "bsc", 0))).toEqual([older, later, next]);
  });

  test("error: a commit that fails mid-batch leaves nothing half-written", async () => {
    const store = await fresh();
    const good = makeBatch(
      [makeTrade(0, 70n)],
      [70n],
      [{ pair: POOL_A, blockNumber: 70n, logIndex: 0, reserve0: 1n, reserve1: 1n }],
    );
    await store.commitRange("bsc", good);

    const seqBefore = (await listAllTrades(store, "bsc", 0))[0]!.seq;

    // The batch replaces the stored trade (its old row is deleted first), then lists one transaction twice:
    // the (network, tx_hash) key fails after other rows already went in.
    const bad: RangeBatch = {
      ...makeBatch(
        [makeTrade(0, 70n, { amountIn: 1n }), makeTrade(1, 71n), makeTrade(2, 72n), makeTrade(1, 72n)],
        [71n, 72n],
        [{ pair: POOL_A, blockNumber: 72n, logIndex: 0, reserve0: 9n, reserve1: 9n }],
      ),
    };
    bad.pairs = [
      ...bad.pairs,
      {
        address: POOL_B,
        dex: "pancake-v2",
        factory: addr(0xf2),
        token0: addr(3),
        token1: addr(4),
        feeBps: 25,
      },
    ];
    await expect(store.commitRange("bsc", bad)).rejects.toThrow(/unique|duplicate/i);

    expect(await store.getCheckpoint("bsc")).toEqual(good.checkpoint);
    const kept = await listAllTrades(store, "bsc", 0);
    expect(withoutSeq(kept)).toEqual(good.trades);
    expect(kept[0]!.seq).toBe(seqBefore);
    expect(await store.listBlocks("bsc")).toEqual(good.blocks);
    expect(await store.listPairs("bsc")).toEqual(good.pairs);
    expect(await store.listReserves("bsc")).toEqual(good.reserves);

    // The store is still usable after the failure.
    await store.commitRange("bsc", makeBatch([makeTrade(1, 71n)], [71n]));
    expect(await listAllTrades(store, "bsc", 0)).toHaveLength(2);
  });

  test("behavior: listTradePage pages equal the filtered full list for every filter and page size", async () => {
    const store = await fresh();
    const TOKEN_A = addr(0x7a);
    const tokens: TokenRef[] = ["", TOKEN_A, addr(0x7b), addr(0x7c)];
    const trades: Trade[] = [];
    // 40 blocks with 0..4 trades; two blocks share each timestamp (timestamps never decrease).
    for (let b = 0; b < 40; b++) {
      for (let tx = 0; tx < (b * 7) % 5; tx++) {
        const i = trades.length;
        trades.push(
          makeTrade(i, 1_000n + BigInt(b), {
            timestamp: T0 + Math.floor(b / 2) * 12,
            txIndex: tx * 3,
            sender: TRADERS[i % 3]!,
            tokenIn: tokens[i % 4]!,
            // Every fifth trade is a cycle that sold and bought the same token.
            tokenOut: i % 5 === 0 ? tokens[i % 4]! : tokens[(i * 3 + 1) % 4]!,
          }),
        );
      }
    }
    await store.commitRange("bsc", makeBatch(trades, range(1_000n, 1_039n)));
    await store.commitRange(
      "eth",
      makeBatch(
        [makeTrade(999, 1_010n, { network: "eth", tokenIn: TOKEN_A, sender: TRADERS[0]! })],
        [1_010n],
      ),
    );
    const stored = await listAllTrades(store, "bsc", 0);
    expect(stored).toHaveLength(trades.length);

    // Both window ends fall on a timestamp two blocks share: both blocks are in.
    const fromMid = T0 + 6 * 12;
    const cases: Omit<TradePageQuery, "limit">[] = [];
    for (const fromTimestamp of [0, fromMid])
      for (const toTimestamp of [undefined, T0 + 15 * 12])
        for (const maxBlock of [undefined, 1_026n])
          for (const token of [undefined, "" as const, TOKEN_A])
            for (const sender of [undefined, TRADERS[1]!]) {
              cases.push({
                fromTimestamp,
                ...(toTimestamp === undefined ? {} : { toTimestamp }),
                ...(maxBlock === undefined ? {} : { maxBlock }),
                ...(token === undefined ? {} : { token }),
                ...(sender === undefined ? {} : { sender }),
              });
            }
    for (const c of cases) {
      const expected = stored.filter(
        (t) =>
          t.timestamp >= c.fromTimestamp &&
          (c.toTimestamp === undefined || t.timestamp < c.toTimestamp) &&
          (c.maxBlock === undefined || t.blockNumber <= c.maxBlock) &&
          (c.token === undefined || t.tokenIn === c.token || t.tokenOut === c.token) &&
          (c.sender === undefined || t.sender === c.sender),
      );
      expect(
        expected.length,
        JSON.stringify(c, (_, v) => (typeof v === "bigint" ? `${v}` : v)),
      ).toBeGreaterThan(0);
      for (const limit of [1, 7, 1000]) {
        expect(await readAllPages(store, "bsc", { ...c, limit })).toEqual(expected);
      }
    }
    // A position inside the window starts right after it; one past the end gives nothing.
    const mid = stored[20]!;
    expect(
      await store.listTradePage("bsc", {
        fromTimestamp: 0,
        after: { blockNumber: mid.blockNumber, txIndex: mid.txIndex, logIndex: mid.logIndex },
        limit: 3,
      }),
    ).toEqual(stored.slice(21, 24));
    const last = stored[stored.length - 1]!;
    expect(
      await store.listTradePage("bsc", {
        fromTimestamp: 0,
        after: { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex },
        limit: 10,
      }),
    ).toEqual([]);
    // Empty windows: after the last trade, or ending before the first.
    expect(await store.listTradePage("bsc", { fromTimestamp: T0 + 10 * DAY, limit: 10 })).toEqual([]);
    expect(await store.listTradePage("bsc", { fromTimestamp: 0, toTimestamp: T0, limit: 10 })).toEqual([]);
    expect(await store.listTradePage("eth", { fromTimestamp: 0, token: TOKEN_A, limit: 10 })).toHaveLength(1);
  });

  test("behavior: a pool's pages hold the trades through it, with their marks, for every filter and page size", async () => {
    const store = await fresh();
    const routes = [[POOL_A], [POOL_B, POOL_A], [POOL_C], [POOL_A, POOL_B, POOL_A]];
    const trades: Trade[] = [];
    for (let b = 0; b < 30; b++) {
      for (let tx = 0; tx < 1 + (b % 3); tx++) {
        const i = trades.length;
        const pools = routes[i % routes.length]!;
        const base = makeTrade(i, 2_000n + BigInt(b), {
          timestamp: T0 + b * 6,
          txIndex: tx,
          sender: TRADERS[i % 3]!,
          pools,
        });
        const hops: TradeHop[] = [];
        pools.forEach((_, k) => {
          const amountIn = k === 0 ? base.amountIn : hops[k - 1]!.amountOut;
          const last = k === pools.length - 1;
          hops.push({
            zeroForOne: k % 2 === 0,
            amountIn,
            amountOut: last ? base.amountOut : amountIn * BigInt(k + 2),
          });
        });
        trades.push({
          ...base,
          marks: { priceInUsd: 10n ** 18n, priceOutUsd: undefined, native: undefined, hops },
        });
      }
    }
    await store.commitRange("bsc", makeBatch(trades, range(2_000n, 2_029n)));
    const stored = await listAllTrades(store, "bsc", 0);
    expect(stored).toHaveLength(trades.length);
    for (const pool of [POOL_A, POOL_B, POOL_C, addr(0xd4)])
      for (const maxBlock of [undefined, 2_020n])
        for (const sender of [undefined, TRADERS[1]!]) {
          const c = {
            fromTimestamp: T0 + 12,
            pool,
            ...(maxBlock === undefined ? {} : { maxBlock }),
            ...(sender === undefined ? {} : { sender }),
          };
          const expected = stored.filter(
            (t) =>
              t.timestamp >= c.fromTimestamp &&
              t.pools.includes(pool) &&
              (maxBlock === undefined || t.blockNumber <= maxBlock) &&
              (sender === undefined || t.sender === sender),
          );
          if (pool !== addr(0xd4)) expect(expected.length).toBeGreaterThan(0);
          for (const limit of [1, 4, 1000]) {
            const pages = await readAllPages(store, "bsc", { ...c, limit });
            expect(pages).toEqual(expected);
            // The marks come along: each trade's hops, the pool's own amounts among them.
            expect(pages.map((t) => t.marks)).toEqual(expected.map((t) => trades[Number(t.logIndex)]!.marks));
          }
        }
  });

  test("behavior: listTradePage reads every column of a row exactly, as SQLite does for the same rows", async () => {
    const store = await fresh();
    const max256 = 2n ** 256n - 1n;
    // Past 2^53: a block number read through a JS number would come back rounded.
    const bigBlock = 2n ** 60n + 7n;
    const timestamp = 2_000_000_000;
    const hops = (amountIn: bigint, amountOut: bigint): TradeHop[] => [
      { zeroForOne: false, amountIn, amountOut: max256 - 2n },
      { zeroForOne: true, amountIn: max256 - 2n, amountOut },
    ];
    const trades: Trade[] = [
      makeTrade(0, bigBlock, {
        timestamp,
        txIndex: 2 ** 31 - 1,
        logIndex: 2 ** 31 - 1,
        tokenIn: "",
        amountIn: max256,
        amountOut: max256 - 1n,
        volumeUsd: max256,
        pools: [POOL_A, POOL_B],
        marks: {
          priceInUsd: max256,
          priceOutUsd: undefined,
          native: addr(0xee),
          hops: hops(max256, max256 - 1n),
        },
      }),
      // No marks (NULL), no pools (""), untracked, nothing bought, the native coin bought.
      makeTrade(1, bigBlock + 1n, {
        timestamp,
        txIndex: 0,
        logIndex: 0,
        tokenOut: "",
        amountIn: 1n,
        amountOut: 0n,
        volumeUsd: 0n,
        tracked: false,
        pools: [],
      }),
      // Through POOL_A without marks: a pool's page reads its NULL marks column.
      makeTrade(2, bigBlock + 1n, { timestamp, txIndex: 1, logIndex: 1, pools: [POOL_A] }),
    ];
    const batch = makeBatch(trades, [bigBlock, bigBlock + 1n]);
    const sqlite = createSqliteStore({ path: ":memory:" });
    await sqlite.migrate();
    try {
      await store.commitRange("bsc", batch);
      await sqlite.commitRange("bsc", batch);
      const queries: TradePageQuery[] = [
        { fromTimestamp: 0, limit: 10 },
        { fromTimestamp: timestamp, toTimestamp: timestamp + 1, limit: 1 },
        { fromTimestamp: 0, pool: POOL_A, limit: 10 },
        { fromTimestamp: 0, token: addr(0x70), limit: 10 },
        {
          fromTimestamp: 0,
          after: { blockNumber: bigBlock, txIndex: 2 ** 31 - 1, logIndex: 2 ** 31 - 1 },
          limit: 10,
        },
      ];
      for (const query of queries) {
        const pages = (await readAllPages(store, "bsc", query)) as StoredTrade[];
        const expected = trades.filter(
          (t) =>
            (query.pool === undefined || t.pools.includes(query.pool)) &&
            (query.token === undefined || t.tokenIn === query.token || t.tokenOut === query.token) &&
            (query.after === undefined || t.blockNumber > query.after.blockNumber),
        );
        // Marks come with a pool's pages only.
        const read = expected.map(({ marks, ...trade }) =>
          query.pool !== undefined && marks !== undefined ? { ...trade, marks } : trade,
        );
        expect(withoutSeq(pages)).toEqual(read);
        for (const t of pages) expect(typeof t.seq).toBe("bigint");
        // The same rows read from SQLite: the same trades (seq aside, each store numbers its own).
        const fromSqlite = (await readAllPages(sqlite, "bsc", query)) as StoredTrade[];
        expect(withoutSeq(pages)).toEqual(withoutSeq(fromSqlite));
      }
    } finally {
      await sqlite.close();
    }
  });

  test("error: listTradePage refuses a limit outside 1..10,000", async () => {
    const store = await fresh();
    for (const limit of [0, 10_001, 1.5, Number.NaN]) {
      await expect(store.listTradePage("bsc", { fromTimestamp: 0, limit })).rejects.toThrow(
        "Invalid trade page limit.",
      );
    }
    expect(await store.listTradePage("bsc", { fromTimestamp: 0, limit: 10_000 })).toEqual([]);
  });

  test("error: a trade filed under another network is refused before anything is written", async () => {
    const store = await fresh();
    const batch = makeBatch([makeTrade(0, 80n, { network: "eth" })], [80n]);
    await expect(store.commitRange("bsc", batch)).rejects.toThrow("trade committed under another network");
    expect(await store.getCheckpoint("bsc")).toBeUndefined();
  });

  test("behavior: commits 20,000 trades in one batch and reads the 24h window back", async () => {
    const store = await fresh();
    const count = 20_000;
    const span = 7 * DAY;
    const start = 40_000_000n;
    const trades: Trade[] = [];
    for (let i = 0; i < count; i++) {
      const blockNumber = start + BigInt(Math.floor(i / 10));
      trades.push(
        makeTrade(i, blockNumber, {
          txHash: hash(0x100000 + i),
          timestamp: T0 + Math.floor((i * span) / count),
          txIndex: i % 10,
          amountIn: 2n ** 200n + BigInt(i),
          pools: i % 3 === 0 ? [POOL_A, POOL_B] : [POOL_A],
          tokenIn: i % 5 === 0 ? "" : addr(0x70),
        }),
      );
    }
    const lastBlock = start + BigInt(count / 10 - 1);
    const batch: RangeBatch = {
      ...makeBatch([], []),
      checkpoint: { blockNumber: lastBlock, blockHash: hash(lastBlock) },
      trades,
    };

    const t0 = performance.now();
    await store.commitRange("bsc", batch);
    const insertMs = performance.now() - t0;

    const since = T0 + span - DAY;
    const t1 = performance.now();
    const window = await listAllTrades(store, "bsc", since);
    const readMs = performance.now() - t1;

    const expected = trades.filter((t) => t.timestamp >= since);
    expect(window).toHaveLength(expected.length);
    expect(withoutSeq([window[0]!, window[window.length - 1]!])).toEqual([
      expected[0],
      expected[expected.length - 1],
    ]);
    console.log(
      `[${backend.name}] inserted ${count} trades in ${insertMs.toFixed(0)} ms ` +
        `(${Math.round(count / (insertMs / 1000))} rows/s); 24h window read: ${window.length} rows in ${readMs.toFixed(0)} ms`,
    );
  });
});
