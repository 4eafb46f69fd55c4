import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { Address, Checkpoint, Hash, NetworkName, Token } from "../domain/types.js";
import {
  addTraderCounts,
  buildDayDeltas,
  type DayDeltas,
  dayOf,
  type TradeContribution,
  traderCountChange,
} from "./buildDayDeltas.js";
import {
  assertTradePageQuery,
  buildTradePageSql,
  buildTradeWindowSql,
  decodeTradeWindow,
  TRADE_COLUMNS,
} from "./buildTradePageSql.js";
import { MIGRATIONS } from "./migrations.js";
import {
  assertTradeNetworks,
  type BlockRow,
  type ContributionRow,
  type DayAggregateRow,
  decodeBlock,
  decodeContribution,
  decodeDayAggregate,
  decodeHead,
  decodePair,
  decodeReserves,
  decodeToken,
  decodeTrade,
  encodePools,
  type HeadRow,
  type PairRow,
  type ReservesRow,
  type TokenRow,
  type TradeRow,
} from "./rowCodec.js";
import type { RangeBatch, Store } from "./types.js";

export interface SqliteStoreOptions {
  /** A file path (its directory is created) or ":memory:". */
  path: string;
}

// better-sqlite3 with safeIntegers: every INTEGER is a bigint.
interface CheckpointRow {
  block_number: bigint;
  block_hash: string;
}
/** What a deleted trade row hands back for its day aggregate. */
const CONTRIBUTION = "RETURNING timestamp, sender, volume_usd, tracked";
const DAY_COLUMNS = "day, volume_usd, trade_count, untracked_count, trader_count";

function prepareStatements(db: Database.Database) {
  return {
    getCheckpoint: db.prepare<[string], CheckpointRow>(
      "SELECT block_number, block_hash FROM checkpoints WHERE network = ?",
    ),
    upsertCheckpoint: db.prepare<[string, bigint, string]>(
      `INSERT INTO checkpoints (network, block_number, block_hash) VALUES (?, ?, ?)
       ON CONFLICT (network) DO UPDATE SET block_number = excluded.block_number, block_hash = excluded.block_hash`,
    ),
    deleteTrade: db.prepare<[string, string], ContributionRow>(
      `DELETE FROM trades WHERE network = ? AND tx_hash = ? ${CONTRIBUTION}`,
    ),
    insertTrade: db.prepare<
      [
        string,
        string,
        number,
        bigint,
        number,
        number,
        string,
        string,
        string,
        string,
        string,
        string,
        number,
        string,
      ]
    >(
      `INSERT INTO trades (network, tx_hash, log_index, block_number, timestamp, tx_index, sender, token_in, amount_in,
         token_out, amount_out, volume_usd, tracked, pools)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    upsertBlock: db.prepare<[string, bigint, string, string, number]>(
      `INSERT INTO blocks (network, number, hash, parent_hash, timestamp) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (network, number) DO UPDATE SET hash = excluded.hash, parent_hash = excluded.parent_hash,
         timestamp = excluded.timestamp`,
    ),
    upsertPair: db.prepare<[string, string, string, string, string, string, number]>(
      `INSERT INTO pairs (network, address, dex, factory, token0, token1, fee_bps) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, address) DO UPDATE SET dex = excluded.dex, factory = excluded.factory,
         token0 = excluded.token0, token1 = excluded.token1, fee_bps = excluded.fee_bps`,
    ),
    upsertReserves: db.prepare<[string, string, bigint, number, string, string]>(
      `INSERT INTO reserves (network, pair, block_number, log_index, reserve0, reserve1) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, pair, block_number) DO UPDATE SET log_index = excluded.log_index,
         reserve0 = excluded.reserve0, reserve1 = excluded.reserve1`,
    ),
    deleteTradesAbove: db.prepare<[string, bigint], ContributionRow>(
      `DELETE FROM trades WHERE network = ? AND block_number > ? ${CONTRIBUTION}`,
    ),
    deleteBlocksAbove: db.prepare<[string, bigint]>("DELETE FROM blocks WHERE network = ? AND number > ?"),
    deleteReservesAbove: db.prepare<[string, bigint]>(
      "DELETE FROM reserves WHERE network = ? AND block_number > ?",
    ),
    deleteTradesBefore: db.prepare<[string, number]>(
      "DELETE FROM trades WHERE network = ? AND timestamp < ?",
    ),
    deleteBlocksBelow: db.prepare<[string, bigint]>("DELETE FROM blocks WHERE network = ? AND number < ?"),
    deleteDayTradersBefore: db.prepare<[string, number]>(
      "DELETE FROM day_traders WHERE network = ? AND day < ?",
    ),
    deleteDayAggregatesBefore: db.prepare<[string, number]>(
      "DELETE FROM day_aggregates WHERE network = ? AND day < ?",
    ),
    // Rows never hold 0 trades, so the count before is the count after minus the change.
    addDayTrader: db.prepare<[string, number, string, number], { trades: bigint }>(
      `INSERT INTO day_traders (network, day, sender, trades) VALUES (?, ?, ?, ?)
       ON CONFLICT (network, day, sender) DO UPDATE SET trades = trades + excluded.trades
       RETURNING trades`,
    ),
    deleteDayTrader: db.prepare<[string, number, string]>(
      "DELETE FROM day_traders WHERE network = ? AND day = ? AND sender = ?",
    ),
    getDayAggregate: db.prepare<[string, number], DayAggregateRow>(
      `SELECT ${DAY_COLUMNS} FROM day_aggregates WHERE network = ? AND day = ?`,
    ),
    upsertDayAggregate: db.prepare<[string, number, string, number, number, number]>(
      `INSERT INTO day_aggregates (network, day, volume_usd, trade_count, untracked_count, trader_count)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, day) DO UPDATE SET volume_usd = excluded.volume_usd,
         trade_count = excluded.trade_count, untracked_count = excluded.untracked_count,
         trader_count = excluded.trader_count`,
    ),
    deleteDayAggregate: db.prepare<[string, number]>(
      "DELETE FROM day_aggregates WHERE network = ? AND day = ?",
    ),
    listDayAggregates: db.prepare<[string, number, number], DayAggregateRow>(
      `SELECT ${DAY_COLUMNS} FROM day_aggregates WHERE network = ? AND day >= ? AND day <= ? ORDER BY day`,
    ),
    countTrades: db.prepare<[string, number], { n: bigint }>(
      "SELECT count(*) AS n FROM trades WHERE network = ? AND timestamp >= ?",
    ),
    upsertHead: db.prepare<[string, bigint, number, number | null]>(
      `INSERT INTO heads (network, head_block, checked_at, synced_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (network) DO UPDATE SET head_block = excluded.head_block, checked_at = excluded.checked_at,
         synced_at = excluded.synced_at`,
    ),
    getHead: db.prepare<[string], HeadRow>(
      "SELECT head_block, checked_at, synced_at FROM heads WHERE network = ?",
    ),
    // A pair's newest row is its current state however old it is: only rows with a newer one go.
    deleteReservesBelow: db.prepare<[string, bigint]>(
      `DELETE FROM reserves AS r WHERE r.network = ? AND r.block_number < ? AND EXISTS (
         SELECT 1 FROM reserves AS n WHERE n.network = r.network AND n.pair = r.pair AND n.block_number > r.block_number)`,
    ),
    listBlocks: db.prepare<[string, bigint], BlockRow>(
      "SELECT number, hash, parent_hash, timestamp FROM blocks WHERE network = ? AND number >= ? ORDER BY number",
    ),
    listTrades: db.prepare<[string, number], TradeRow>(
      `SELECT ${TRADE_COLUMNS} FROM trades WHERE network = ? AND timestamp >= ?
       ORDER BY block_number, tx_index, log_index, seq`,
    ),
    listPairs: db.prepare<[string], PairRow>(
      "SELECT address, dex, factory, token0, token1, fee_bps FROM pairs WHERE network = ? ORDER BY address",
    ),
    listReserves: db.prepare<[string, bigint], ReservesRow>(
      `SELECT pair, block_number, log_index, reserve0, reserve1 FROM (
         SELECT *, row_number() OVER (PARTITION BY pair ORDER BY block_number DESC) AS rank
         FROM reserves WHERE network = ? AND block_number >= ?)
       WHERE rank = 1 ORDER BY pair`,
    ),
    upsertToken: db.prepare<[string, string, string, string, number]>(
      `INSERT INTO tokens (network, address, name, symbol, decimals) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (network, address) DO UPDATE SET name = excluded.name, symbol = excluded.symbol,
         decimals = excluded.decimals`,
    ),
    listTokens: db.prepare<[string], TokenRow>(
      "SELECT address, name, symbol, decimals FROM tokens WHERE network = ? ORDER BY address",
    ),
    addRejectedPair: db.prepare<[string, string]>(
      "INSERT INTO rejected_pairs (network, address) VALUES (?, ?) ON CONFLICT DO NOTHING",
    ),
    listRejectedPairs: db.prepare<[string], { address: string }>(
      "SELECT address FROM rejected_pairs WHERE network = ? ORDER BY address",
    ),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

/**
 * Applies trade contributions to day_traders and day_aggregates. Volumes are decimal TEXT, so each
 * touched day is read, added up with bigint and written back (a batch touches a handful of days).
 */
function applyDayDeltas(s: Statements, network: NetworkName, deltas: DayDeltas): void {
  const traderChanges = new Map<number, number>();
  for (const t of deltas.traders) {
    const after = Number(s.addDayTrader.get(network, t.day, t.sender, t.trades)!.trades);
    if (after <= 0) s.deleteDayTrader.run(network, t.day, t.sender);
    const change = traderCountChange(after - t.trades, after);
    traderChanges.set(t.day, (traderChanges.get(t.day) ?? 0) + change);
  }
  addTraderCounts(deltas.days, traderChanges);
  for (const delta of deltas.days.values()) {
    const row = s.getDayAggregate.get(network, delta.day);
    const current = row === undefined ? undefined : decodeDayAggregate(row);
    const tradeCount = (current?.tradeCount ?? 0) + delta.tradeCount;
    if (tradeCount <= 0) {
      s.deleteDayAggregate.run(network, delta.day);
      continue;
    }
    s.upsertDayAggregate.run(
      network,
      delta.day,
      ((current?.volumeUsd ?? 0n) + delta.volumeUsd).toString(),
      tradeCount,
      (current?.untrackedCount ?? 0) + delta.untrackedCount,
      (current?.traderCount ?? 0) + delta.traderCount,
    );
  }
}

/** The embedded store: SQLite through better-sqlite3 (WAL, synchronous=NORMAL, exact amounts as TEXT). */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  const { path } = options;
  if (path !== ":memory:" && path !== "" && !path.startsWith("file:")) {
    mkdirSync(dirname(path), { recursive: true });
  }
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  // Block numbers and seq may pass 2^53: every INTEGER comes back as a bigint.
  db.defaultSafeIntegers(true);

  // Statements are prepared once, after migrate() created the tables they name.
  let statements: Statements | undefined;
  const stmts = (): Statements => {
    statements ??= prepareStatements(db);
    return statements;
  };

  const migrateTx = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
    const applied = new Set(
      db
        .prepare<[], { version: bigint }>("SELECT version FROM schema_migrations")
        .all()
        .map((row) => Number(row.version)),
    );
    const record = db.prepare<[number, string, number]>(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
    );
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sqlite);
      migration.sqliteAfter?.(db);
      record.run(migration.version, migration.name, Math.floor(Date.now() / 1000));
    }
  });

  const commitTx = db.transaction((network: NetworkName, batch: RangeBatch) => {
    const s = stmts();
    // A re-committed transaction replaces all its trades (they may split differently). Every one is
    // deleted before any is inserted, so a trade listed twice in one batch fails on the unique key
    // (as on PostgreSQL) instead of silently replacing itself.
    const removed: TradeContribution[] = [];
    for (const txHash of new Set(batch.trades.map((t) => t.txHash))) {
      for (const old of s.deleteTrade.all(network, txHash)) removed.push(decodeContribution(old));
    }
    for (const t of batch.trades) {
      s.insertTrade.run(
        network,
        t.txHash,
        t.logIndex,
        t.blockNumber,
        t.timestamp,
        t.txIndex,
        t.sender,
        t.tokenIn,
        t.amountIn.toString(),
        t.tokenOut,
        t.amountOut.toString(),
        t.volumeUsd.toString(),
        t.tracked ? 1 : 0,
        encodePools(t.pools),
      );
    }
    for (const b of batch.blocks) s.upsertBlock.run(network, b.number, b.hash, b.parentHash, b.timestamp);
    for (const p of batch.pairs) {
      s.upsertPair.run(network, p.address, p.dex, p.factory, p.token0, p.token1, p.feeBps);
    }
    for (const r of batch.reserves) {
      s.upsertReserves.run(
        network,
        r.pair,
        r.blockNumber,
        r.logIndex,
        r.reserve0.toString(),
        r.reserve1.toString(),
      );
    }
    applyDayDeltas(s, network, buildDayDeltas(batch.trades, removed));
    s.upsertCheckpoint.run(network, batch.checkpoint.blockNumber, batch.checkpoint.blockHash);
  });

  const rollbackTx = db.transaction((network: NetworkName, ancestor: Checkpoint) => {
    const s = stmts();
    const removed = s.deleteTradesAbove.all(network, ancestor.blockNumber).map(decodeContribution);
    applyDayDeltas(s, network, buildDayDeltas([], removed));
    s.deleteBlocksAbove.run(network, ancestor.blockNumber);
    s.deleteReservesAbove.run(network, ancestor.blockNumber);
    s.upsertCheckpoint.run(network, ancestor.blockNumber, ancestor.blockHash);
  });

  const pruneTx = db.transaction(
    (network: NetworkName, opts: { tradesBefore: number; blocksBelow: bigint }) => {
      const s = stmts();
      s.deleteTradesBefore.run(network, opts.tradesBefore);
      // The day tradesBefore falls in keeps its aggregate whole: only earlier days go.
      const firstKept = dayOf(opts.tradesBefore);
      s.deleteDayTradersBefore.run(network, firstKept);
      s.deleteDayAggregatesBefore.run(network, firstKept);
      s.deleteBlocksBelow.run(network, opts.blocksBelow);
      s.deleteReservesBelow.run(network, opts.blocksBelow);
    },
  );

  // Page statements vary with the filters given: a handful of shapes, each prepared once.
  const pageStatements = new Map<string, Database.Statement<unknown[], unknown>>();
  const prepared = (text: string): Database.Statement<unknown[], unknown> => {
    let statement = pageStatements.get(text);
    if (statement === undefined) {
      statement = db.prepare<unknown[], unknown>(text);
      pageStatements.set(text, statement);
    }
    return statement;
  };

  const upsertTokensTx = db.transaction((network: NetworkName, tokens: Token[]) => {
    const s = stmts();
    for (const t of tokens) s.upsertToken.run(network, t.address, t.name, t.symbol, t.decimals);
  });

  const addRejectedTx = db.transaction((network: NetworkName, pairs: Address[]) => {
    const s = stmts();
    for (const address of pairs) s.addRejectedPair.run(network, address);
  });

  return {
    kind: "sqlite",

    async migrate() {
      // IMMEDIATE takes the write lock first, so two processes opening one file apply each migration once.
      migrateTx.immediate();
    },

    async close() {
      if (db.open) db.close();
    },

    async tryAcquireWriter() {
      return true;
    },

    async getCheckpoint(network) {
      const row = stmts().getCheckpoint.get(network);
      return row === undefined
        ? undefined
        : { blockNumber: row.block_number, blockHash: row.block_hash as Hash };
    },

    async commitRange(network, batch) {
      assertTradeNetworks(network, batch.trades);
      commitTx.immediate(network, batch);
    },

    async rollback(network, ancestor) {
      rollbackTx.immediate(network, ancestor);
    },

    async prune(network, opts) {
      pruneTx.immediate(network, opts);
    },

    async listBlocks(network, fromBlock = 0n) {
      return stmts().listBlocks.all(network, fromBlock).map(decodeBlock);
    },

    async listTrades(network, sinceTimestamp) {
      return stmts().listTrades.all(network, sinceTimestamp).map(decodeTrade);
    },

    async listTradePage(network, query) {
      assertTradePageQuery(query);
      const probe = buildTradeWindowSql("sqlite", network, query.fromTimestamp, query.toTimestamp);
      const bounds = prepared(probe.text).get(...probe.params) as Parameters<typeof decodeTradeWindow>[0];
      const page = buildTradePageSql("sqlite", network, query, decodeTradeWindow(bounds, query.toTimestamp));
      if (page === undefined) return [];
      return (prepared(page.text).all(...page.params) as TradeRow[]).map(decodeTrade);
    },

    async countTrades(network, sinceTimestamp) {
      return Number(stmts().countTrades.get(network, sinceTimestamp)!.n);
    },

    async listDayAggregates(network, fromDay, toDay) {
      return stmts().listDayAggregates.all(network, fromDay, toDay).map(decodeDayAggregate);
    },

    async saveHead(network, head) {
      stmts().upsertHead.run(network, head.headBlock, head.checkedAt, head.syncedAt ?? null);
    },

    async getHead(network) {
      const row = stmts().getHead.get(network);
      return row === undefined ? undefined : decodeHead(row);
    },

    async listPairs(network) {
      return stmts().listPairs.all(network).map(decodePair);
    },

    async listReserves(network, sinceBlock = 0n) {
      return stmts().listReserves.all(network, sinceBlock).map(decodeReserves);
    },

    async upsertTokens(network, tokens) {
      upsertTokensTx.immediate(network, tokens);
    },

    async listTokens(network) {
      return stmts().listTokens.all(network).map(decodeToken);
    },

    async addRejectedPairs(network, pairs) {
      addRejectedTx.immediate(network, pairs);
    },

    async listRejectedPairs(network) {
      return stmts()
        .listRejectedPairs.all(network)
        .map((row) => row.address as Address);
    },
  };
}
