import { expect, test } from "vitest";
import type { TradeStatsQuery } from "../../src/domain/tradeStats.js";
import type { Address, Trade, TradeHop } from "../../src/domain/types.js";
import { buildTradePageSql, type SqlDialect } from "../../src/store/buildTradePageSql.js";
import { buildTradeStatsSql } from "../../src/store/buildTradeStatsSql.js";
import type { Store } from "../../src/store/types.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { describeStores, type TestDatabase } from "../support/storeBackends.js";
import {
  addr,
  hash,
  makeBatch,
  makeTrade,
  POOL_A,
  POOL_B,
  POOL_C,
  range,
  readAllPages,
  T0,
  TRADERS,
} from "../support/storeFixtures.js";

// trade_pools is the index of trades by pool (migration 8): these tests hold it to a recompute
// from trades.pools through every write, and the pool reads to the index's plan.

const ROUTES: Address[][] = [[POOL_A], [POOL_B, POOL_A], [POOL_C], [POOL_A, POOL_B, POOL_A], []];

/** `perBlock` trades in each of `blocks`, routed through ROUTES in turn, with marks (a hop per pool). */
function routedTrades(blocks: bigint[], perBlock: number, first = 0, routes = ROUTES): Trade[] {
  return blocks.flatMap((block, b) =>
    Array.from({ length: perBlock }, (_, tx): Trade => {
      const i = first + b * perBlock + tx;
      const pools = routes[i % routes.length]!;
      const base = makeTrade(i, block, { txIndex: tx, sender: TRADERS[i % 3]!, pools });
      const hops: TradeHop[] = pools.map((_, k) => ({
        zeroForOne: (i + k) % 2 === 0,
        amountIn: base.amountIn,
        amountOut: base.amountOut,
      }));
      return { ...base, marks: { priceInUsd: 10n ** 18n, priceOutUsd: undefined, native: undefined, hops } };
    }),
  );
}

const keyOf = (row: readonly unknown[]) => row.map(String).join(" ");

/** trade_pools as stored, and as recomputed from trades.pools (one row per trade and distinct pool). */
async function indexAndRecompute(db: TestDatabase) {
  const stored = await db.query!(
    "SELECT network, pool, block_number, tx_index, log_index, seq FROM trade_pools",
  );
  const trades = await db.query!("SELECT network, pools, block_number, tx_index, log_index, seq FROM trades");
  const expected = trades.flatMap((t) =>
    [
      ...new Set(
        String(t.pools)
          .split(",")
          .filter((pool) => pool !== ""),
      ),
    ].map((pool) => keyOf([t.network, pool, t.block_number, t.tx_index, t.log_index, t.seq])),
  );
  return {
    stored: stored.map((row) => keyOf(Object.values(row))).sort(),
    expected: expected.sort(),
  };
}

/** Pool pages and pool stats answer what a filter of every stored trade says. */
async function expectPoolReads(store: Store, maxBlock: bigint) {
  const all = await listAllTrades(store, "bsc", 0);
  for (const pool of [POOL_A, POOL_B, POOL_C, addr(0xd4)]) {
    const through = all.filter((t) => t.pools.includes(pool));
    expect(await readAllPages(store, "bsc", { fromTimestamp: 0, pool, limit: 3 })).toEqual(through);
    const from = through[Math.floor(through.length / 2)]?.timestamp ?? T0;
    const query: TradeStatsQuery = {
      subject: { kind: "pool", pool },
      withNative: false,
      fromTimestamps: [from, 0],
      toTimestamp: T0 + 10_000,
      maxBlock,
    };
    const [recent, whole] = await store.getTradeStats("bsc", query);
    for (const [totals, since] of [
      [recent!, from],
      [whole!, 0],
    ] as const) {
      const inWindow = through.filter((t) => t.timestamp >= since && t.blockNumber <= maxBlock);
      const side = (t: Trade) => t.marks!.hops[t.pools.indexOf(pool)]!.zeroForOne;
      expect(totals.volumeUsd).toBe(inWindow.reduce((sum, t) => sum + t.volumeUsd, 0n));
      expect(totals.sells).toBe(inWindow.filter(side).length);
      expect(totals.buys).toBe(inWindow.filter((t) => !side(t)).length);
    }
  }
}

describeStores("store trade_pools", ({ backend, open }) => {
  const shared = backend.shared;

  test("behavior: trade_pools equals a recompute from trades.pools through commits, a re-commit, a rollback and a prune; pool pages and stats follow", async () => {
    const db = backend.newDatabase();
    const store = open(db);
    await store.migrate();
    const check = async (maxBlock: bigint) => {
      if (db.query !== undefined) {
        const { stored, expected } = await indexAndRecompute(db);
        expect(stored).toEqual(expected);
        expect(stored.length).toBeGreaterThan(0);
      }
      await expectPoolReads(store, maxBlock);
    };

    await store.commitRange("bsc", makeBatch(routedTrades(range(100n, 119n), 3), range(100n, 119n)));
    await store.commitRange("bsc", makeBatch(routedTrades(range(120n, 139n), 3, 60), range(120n, 139n)));
    await check(139n);
    // A re-commit of block 130 whose transactions now route elsewhere (and one pool twice).
    const again = routedTrades([130n], 3, 90, [[POOL_C, POOL_C], [POOL_B], [addr(0xd4)]]);
    await store.commitRange("bsc", makeBatch(again, [130n]));
    expect((await listAllTrades(store, "bsc", 0)).find((t) => t.txHash === hash(0x1000 + 90))!.pools).toEqual(
      [POOL_C, POOL_C],
    );
    await check(139n);
    await store.rollback("bsc", { blockNumber: 125n, blockHash: hash(125n) });
    await check(125n);
    await store.prune("bsc", { tradesBefore: T0 + 110 * 3, blocksBelow: 110n });
    expect((await listAllTrades(store, "bsc", 0))[0]!.blockNumber).toBe(110n);
    await check(125n);
    await store.commitRange("bsc", makeBatch(routedTrades(range(126n, 135n), 2, 500), range(126n, 135n)));
    await check(135n);
  });

  test.skipIf(!shared)(
    "behavior: a version-7 store's trades are indexed by migration 8 (a pool listed twice once, no pools none)",
    async () => {
      const db = backend.newDatabase();
      const trades = routedTrades(range(10n, 29n), 4).map(({ marks: _, ...t }) => t);
      await db.seedV7Trades!(trades);
      const store = open(db);
      await store.migrate();
      const { stored, expected } = await indexAndRecompute(db);
      expect(stored).toEqual(expected);
      // ROUTES: A, (B, A), C, (A, B, A), none: 1 + 2 + 1 + 2 + 0 rows per five trades.
      expect(stored).toHaveLength((trades.length / 5) * 6);
      const all = await listAllTrades(store, "bsc", 0);
      for (const pool of [POOL_A, POOL_B, POOL_C]) {
        expect(await readAllPages(store, "bsc", { fromTimestamp: 0, pool, limit: 7 })).toEqual(
          all.filter((t) => t.pools.includes(pool)),
        );
      }
    },
  );

  test.skipIf(!shared)(
    "behavior: a pool's page and its stats walk the pool's trade_pools rows and look trades up by seq, never the window",
    async () => {
      const db = backend.newDatabase();
      const store = open(db);
      await store.migrate();
      // 4,000 trades over 40 pools; the rare pool is in 4 of them (0.1%).
      const rare = addr(0xeeee);
      const pools = Array.from({ length: 40 }, (_, i) => addr(0xe000 + i));
      const blocks = range(1n, 200n);
      const trades = routedTrades(
        blocks,
        20,
        0,
        pools.map((pool) => [pool]),
      ).map((t, i) => (i % 1000 === 7 ? { ...t, pools: [rare] } : t));
      await store.commitRange("bsc", makeBatch(trades, blocks));
      // PostgreSQL's autovacuum keeps statistics; the SQLite store never runs ANALYZE.
      if (store.kind === "postgres") await db.query!("ANALYZE trades, trade_pools");
      expect(await readAllPages(store, "bsc", { fromTimestamp: 0, pool: rare, limit: 2 })).toHaveLength(4);

      const dialect: SqlDialect = store.kind;
      const window = { firstBlock: 1n, lastBlock: 200n, empty: false };
      const page = buildTradePageSql(dialect, "bsc", { fromTimestamp: 0, pool: rare, limit: 50 }, window)!;
      const stats = buildTradeStatsSql(
        dialect,
        "bsc",
        {
          subject: { kind: "pool", pool: rare },
          withNative: false,
          fromTimestamps: [T0, T0 + 300],
          toTimestamp: T0 + 1_000,
          maxBlock: 200n,
        },
        window,
      )!;
      const plan = async (text: string, params: readonly unknown[], before?: string) => {
        if (dialect === "sqlite") {
          const rows = await db.query!(`EXPLAIN QUERY PLAN ${text}`, params);
          return rows.map((row) => String(row.detail)).join("\n");
        }
        const rows = await db.query!(`EXPLAIN ${text}`, params, before);
        return rows.map((row) => String(row["QUERY PLAN"])).join("\n");
      };
      // The page runs as listTradePage runs it on PostgreSQL (no bitmap or sequential scans).
      const pagePlan = await plan(
        page.text,
        page.params,
        "SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off",
      );
      const statsPlan = await plan(stats.text, stats.params);
      for (const text of [pagePlan, statsPlan]) {
        if (dialect === "sqlite") {
          expect(text).toMatch(/SEARCH tp USING PRIMARY KEY \(network=\? AND pool=\? AND \(?block_number/);
          expect(text).toMatch(/SEARCH trades USING INTEGER PRIMARY KEY \(rowid=\?\)/);
          expect(text).not.toMatch(/SCAN (tp|trades)|trades_network_(block|timestamp)/);
        } else {
          expect(text).toMatch(/Index (Only )?Scan using trade_pools_pkey on trade_pools tp/);
          expect(text).toMatch(/Index Scan using trades_network_seq on trades/);
          expect(text).not.toMatch(/Seq Scan|trades_network_(block|timestamp)/);
        }
      }
      if (dialect === "sqlite") expect(pagePlan).not.toMatch(/TEMP B-TREE/);
      else expect(pagePlan).not.toMatch(/Sort/);
    },
  );
});
