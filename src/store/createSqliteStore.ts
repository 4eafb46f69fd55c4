import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { addKnown, type CandleTotals, type TradePosition } from "../domain/market.js";
import type { Address, Checkpoint, Hash, NetworkName, Token, Trade } from "../domain/types.js";
import {
  assertCandleQuery,
  assertCandleSumQuery,
  bucketStart,
  buildCandleRows,
  type CandleParent,
  type CandleRow,
  canAppendCandles,
  candleOf,
  keyOf,
  POOL_CANDLE,
  parentsOf,
  ROLL_UPS,
  rollUpCandles,
  SUM_CANDLES_CHUNK,
  subjectKey,
  sumCandleRows,
  TOKEN_CANDLE,
  touchedMinutes,
} from "./buildCandles.js";
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
  type CandleDbRow,
  type DayAggregateRow,
  decodeBlock,
  decodeCandle,
  decodeContribution,
  decodeDayAggregate,
  decodeHead,
  decodePair,
  decodeReserves,
  decodeToken,
  decodeTrade,
  decodeTradeValues,
  encodeMarks,
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
/** What a deleted trade row hands back: its day aggregate and candle contributions. */
const REMOVED = `RETURNING ${TRADE_COLUMNS}, marks`;
const DAY_COLUMNS = "day, volume_usd, trade_count, untracked_count, trader_count";
const CANDLE_COLUMNS =
  "kind, subject, width, start, open, high, low, close, volume, quote_volume, trade_count, volume_usd";
type CandleValues = [
  string | null,
  string | null,
  string | null,
  string | null,
  string,
  string,
  number,
  string | null,
];
type CandleId = [string, number, string, number, number];

function prepareStatements(db: Database.Database) {
  return {
    getCheckpoint: db.prepare<[string], CheckpointRow>(
      "SELECT block_number, block_hash FROM checkpoints WHERE network = ?",
    ),
    upsertCheckpoint: db.prepare<[string, bigint, string]>(
      `INSERT INTO checkpoints (network, block_number, block_hash) VALUES (?, ?, ?)
       ON CONFLICT (network) DO UPDATE SET block_number = excluded.block_number, block_hash = excluded.block_hash`,
    ),
    deleteTrade: db.prepare<[string, string], TradeRow>(
      `DELETE FROM trades WHERE network = ? AND tx_hash = ? ${REMOVED}`,
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
        string | null,
      ]
    >(
      `INSERT INTO trades (network, tx_hash, log_index, block_number, timestamp, tx_index, sender, token_in, amount_in,
         token_out, amount_out, volume_usd, tracked, pools, marks)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    lastTrade: db.prepare<[string], { block_number: bigint; tx_index: bigint; log_index: bigint }>(
      `SELECT block_number, tx_index, log_index FROM trades WHERE network = ?
       ORDER BY block_number DESC, tx_index DESC, log_index DESC LIMIT 1`,
    ),
    listTradesBetween: db.prepare<[string, number, number], TradeRow>(
      `SELECT ${TRADE_COLUMNS}, marks FROM trades WHERE network = ? AND timestamp >= ? AND timestamp < ?`,
    ),
    listCandles: db.prepare<[string, number, string, number, number, number, number], CandleDbRow>(
      `SELECT ${CANDLE_COLUMNS} FROM candles
       WHERE network = ? AND kind = ? AND subject = ? AND width = ? AND start >= ? AND start < ?
       ORDER BY start LIMIT ?`,
    ),
    // One JSON array of subjects: a lookup over the primary key per subject.
    sumCandleRows: db.prepare<[string, number, string, number, number, number], CandleDbRow>(
      `SELECT ${CANDLE_COLUMNS} FROM candles
       WHERE network = ? AND kind = ? AND subject IN (SELECT value FROM json_each(?)) AND width = ?
         AND start >= ? AND start <= ?`,
    ),
    // The literal predicate of the partial index candles_hourly (width, subject) lets it be used.
    sumHourlyRows: db.prepare<[string, number, number, number], CandleDbRow>(
      `SELECT ${CANDLE_COLUMNS} FROM candles
       WHERE network = ? AND kind = ? AND width = 3600 AND subject <> '' AND start >= ? AND start <= ?`,
    ),
    upsertCandle: db.prepare<[...CandleId, ...CandleValues]>(
      `INSERT INTO candles (network, ${CANDLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, kind, subject, width, start) DO UPDATE SET open = excluded.open,
         high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume,
         quote_volume = excluded.quote_volume, trade_count = excluded.trade_count,
         volume_usd = excluded.volume_usd`,
    ),
    deleteCandle: db.prepare<CandleId>(
      "DELETE FROM candles WHERE network = ? AND kind = ? AND subject = ? AND width = ? AND start = ?",
    ),
    // The expression of the candles_network_day index, so prune reads it.
    deleteCandlesBefore: db.prepare<[string, number]>(
      "DELETE FROM candles WHERE network = ? AND start / 86400 < ?",
    ),
    mergeCandles: chunkedStatements(
      db,
      (values) => `INSERT INTO candles (network, ${CANDLE_COLUMNS}) VALUES ${values}
       ON CONFLICT (network, kind, subject, width, start) DO UPDATE SET open = coalesce(open, excluded.open),
         high = big_max(high, excluded.high), low = big_min(low, excluded.low),
         close = coalesce(excluded.close, close), volume = big_add(volume, excluded.volume),
         quote_volume = big_add(quote_volume, excluded.quote_volume),
         trade_count = trade_count + excluded.trade_count,
         volume_usd = big_add_known(volume_usd, excluded.volume_usd)`,
      13,
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
    deleteTradesAbove: db.prepare<[string, bigint], TradeRow>(
      `DELETE FROM trades WHERE network = ? AND block_number > ? ${REMOVED}`,
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
      `SELECT ${TRADE_COLUMNS}, marks FROM trades WHERE network = ? AND timestamp >= ?
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

/** Rows a multi-row statement writes at once: one statement per 64 rows instead of one per row. */
const CHUNK_ROWS = 64;

/**
 * A statement per row count (1..CHUNK_ROWS) of `build(values)`, `values` being that many rows of
 * `columns` placeholders, each prepared on first use.
 */
function chunkedStatements(
  db: Database.Database,
  build: (values: string) => string,
  columns: number,
): (rows: number) => Database.Statement<unknown[]> {
  const prepared = new Map<number, Database.Statement<unknown[]>>();
  const row = `(${Array.from({ length: columns }, () => "?").join(", ")})`;
  return (rows) => {
    let statement = prepared.get(rows);
    if (statement === undefined) {
      statement = db.prepare<unknown[]>(build(Array.from({ length: rows }, () => row).join(", ")));
      prepared.set(rows, statement);
    }
    return statement;
  };
}

/**
 * Exact arithmetic on the decimal TEXT columns, for SQL: an upsert merges a candle into its stored
 * row in one statement (SQLite's own numbers would round past 2^63).
 */
function registerBigFunctions(db: Database.Database): void {
  const big = (value: unknown): bigint | undefined =>
    value === null || value === undefined ? undefined : BigInt(value as string);
  const pick = (a: unknown, b: unknown, keepA: (x: bigint, y: bigint) => boolean): string | null => {
    const [x, y] = [big(a), big(b)];
    const kept = x === undefined ? y : y === undefined || keepA(x, y) ? x : y;
    return kept === undefined ? null : kept.toString();
  };
  db.function("big_max", { deterministic: true }, (a, b) => pick(a, b, (x, y) => x >= y));
  db.function("big_min", { deterministic: true }, (a, b) => pick(a, b, (x, y) => x <= y));
  db.function("big_add", { deterministic: true }, (a, b) => ((big(a) ?? 0n) + (big(b) ?? 0n)).toString());
  // NULL is "unknown" (Candle.volumeUsd): a sum with an unknown part is unknown.
  db.function("big_add_known", { deterministic: true }, (a, b) => text(addKnown(big(a), big(b))));
}

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

const text = (value: bigint | undefined): string | null => (value === undefined ? null : value.toString());

/**
 * Brings the candles up to date with trades just added and removed (see buildCandles.ts). The
 * usual commit appends: the batch's buckets are folded and merged into the stored rows by the
 * upsert itself, 64 rows a statement (measured: about 3 ms more per head commit of 16 trades, 4x
 * the time of a 2,000-trade backfill commit). Anything else (a rollback, a re-commit) rebuilds
 * the minute buckets it touched from the trades stored now, then each coarser bucket above them
 * from its finer rows: exact, and bounded by the touched buckets, never by a day's trades.
 */
function applyCandles(
  s: Statements,
  network: NetworkName,
  added: readonly Trade[],
  removed: readonly Trade[],
  append: boolean,
): void {
  const id = (row: Pick<CandleRow, "kind" | "subject" | "interval" | "start">): CandleId => [
    network,
    row.kind,
    row.subject,
    row.interval,
    row.start,
  ];
  // One row's bound values, in the column order of both statements.
  const values = (row: CandleRow): [...CandleId, ...CandleValues] => [
    ...id(row),
    text(row.open),
    text(row.high),
    text(row.low),
    text(row.close),
    row.volume.toString(),
    row.quoteVolume.toString(),
    row.tradeCount,
    text(row.volumeUsd),
  ];
  const write = (row: CandleRow) => s.upsertCandle.run(...values(row));
  if (append) {
    // Every added trade follows every stored one: the stored row (if any) is the bucket's earlier part.
    const rows = [...buildCandleRows(added).values()];
    for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
      const chunk = rows.slice(i, i + CHUNK_ROWS);
      s.mergeCandles(chunk.length).run(...chunk.flatMap(values));
    }
    return;
  }
  const touched = touchedMinutes([...removed, ...added]);
  if (touched.rows.length === 0) return;
  const trades = s.listTradesBetween.all(network, touched.from, touched.to).map(decodeTrade);
  const minutes = buildCandleRows(trades, [60], (key) => touched.keys.has(key));
  for (const row of touched.rows) {
    const rebuilt = minutes.get(keyOf(row));
    if (rebuilt === undefined) s.deleteCandle.run(...id(row));
    else write(rebuilt);
  }
  let children: Pick<CandleRow, "kind" | "subject" | "interval" | "start">[] = touched.rows;
  for (const { interval, finer } of ROLL_UPS) {
    const parents: CandleParent[] = parentsOf(children, interval, finer);
    const finerRows = parents.flatMap((p) =>
      s.listCandles.all(network, p.kind, p.subject, finer, p.start, p.start + interval, -1).map(decodeCandle),
    );
    for (const { parent, row } of rollUpCandles(parents, finerRows)) {
      if (row === undefined) s.deleteCandle.run(...id(parent));
      else write(row);
    }
    children = parents;
  }
}

function* mapIterable<T, U>(items: Iterable<T>, map: (item: T) => U): Iterable<U> {
  for (const item of items) yield map(item);
}

/** The newest stored trade's position, or undefined when the network has none. */
function lastPosition(s: Statements, network: NetworkName): TradePosition | undefined {
  const row = s.lastTrade.get(network);
  return row === undefined
    ? undefined
    : { blockNumber: row.block_number, txIndex: Number(row.tx_index), logIndex: Number(row.log_index) };
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
  registerBigFunctions(db);

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
    const removedTrades: Trade[] = [];
    for (const txHash of new Set(batch.trades.map((t) => t.txHash))) {
      for (const old of s.deleteTrade.all(network, txHash)) {
        removed.push(decodeContribution(old));
        removedTrades.push(decodeTrade(old));
      }
    }
    const candles = batch.trades.some((t) => t.marks !== undefined) || removedTrades.length > 0;
    const append = candles && canAppendCandles(lastPosition(s, network), batch.trades, removedTrades);
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
        t.marks === undefined ? null : encodeMarks(t, t.marks),
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
    if (candles) applyCandles(s, network, batch.trades, removedTrades, append);
    s.upsertCheckpoint.run(network, batch.checkpoint.blockNumber, batch.checkpoint.blockHash);
  });

  const rollbackTx = db.transaction((network: NetworkName, ancestor: Checkpoint) => {
    const s = stmts();
    const rows = s.deleteTradesAbove.all(network, ancestor.blockNumber);
    applyDayDeltas(s, network, buildDayDeltas([], rows.map(decodeContribution)));
    applyCandles(s, network, [], rows.map(decodeTrade), false);
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
      // Candles of every width go by whole days too, so a kept day's buckets always roll up.
      s.deleteCandlesBefore.run(network, firstKept);
      s.deleteBlocksBelow.run(network, opts.blocksBelow);
      s.deleteReservesBelow.run(network, opts.blocksBelow);
    },
  );

  // Page statements vary with the filters given: a handful of shapes, each prepared once. A raw
  // statement returns each row as an array of its values.
  const pageStatements = new Map<string, Database.Statement<unknown[], unknown>>();
  const prepared = (text: string, raw = false): Database.Statement<unknown[], unknown> => {
    const key = raw ? `raw\n${text}` : text;
    let statement = pageStatements.get(key);
    if (statement === undefined) {
      statement = db.prepare<unknown[], unknown>(text);
      if (raw) statement.raw(true);
      pageStatements.set(key, statement);
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
      return (prepared(page.text, true).all(...page.params) as unknown[][]).map(decodeTradeValues);
    },

    async countTrades(network, sinceTimestamp) {
      return Number(stmts().countTrades.get(network, sinceTimestamp)!.n);
    },

    async listDayAggregates(network, fromDay, toDay) {
      return stmts().listDayAggregates.all(network, fromDay, toDay).map(decodeDayAggregate);
    },

    async listCandles(network, query) {
      assertCandleQuery(query);
      const { kind, subject } = subjectKey(query.subject);
      const from = bucketStart(query.fromTimestamp, query.interval);
      const to = query.toTimestamp ?? Number.MAX_SAFE_INTEGER;
      return stmts()
        .listCandles.all(network, kind, subject, query.interval, from, to, query.limit)
        .map((row) => candleOf(decodeCandle(row)));
    },

    async sumCandles(network, query) {
      assertCandleSumQuery(query);
      const kind = query.kind === "token" ? TOKEN_CANDLE : POOL_CANDLE;
      const totals = new Map<Address, CandleTotals>();
      if (query.subjects === undefined) {
        const rows = stmts().sumHourlyRows.iterate(network, kind, query.fromTimestamp, query.toTimestamp);
        return sumCandleRows(mapIterable(rows, decodeCandle), totals);
      }
      for (let i = 0; i < query.subjects.length; i += SUM_CANDLES_CHUNK) {
        const subjects = JSON.stringify(query.subjects.slice(i, i + SUM_CANDLES_CHUNK));
        const rows = stmts().sumCandleRows.iterate(
          network,
          kind,
          subjects,
          query.interval,
          query.fromTimestamp,
          query.toTimestamp,
        );
        sumCandleRows(mapIterable(rows, decodeCandle), totals);
      }
      return totals;
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
