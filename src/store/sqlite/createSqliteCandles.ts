import type Database from "better-sqlite3";
import type { CandleTotals } from "../../domain/market.js";
import type { Address, NetworkName } from "../../domain/types.js";
import {
  assertCandleQuery,
  assertCandleSumQuery,
  bucketStart,
  type CandleRow,
  candleOf,
  POOL_CANDLE,
  SUM_CANDLES_CHUNK,
  subjectKey,
  sumCandleRows,
  TOKEN_CANDLE,
} from "../buildCandles.js";
import type { CandleId, WriteHandlers } from "../plan/writeSteps.js";
import { CANDLE_COLUMNS, type CandleDbRow, decodeCandle } from "../rowCodec.js";
import type { Store } from "../types.js";
import { CHUNK_ROWS, chunkedStatements } from "./chunkedStatements.js";
import { optionalText } from "./optionalText.js";

// Rows per page of the every-series hourly read (sumCandles without subjects).
const SUM_HOURLY_PAGE = 2_000;

type CandleKey = [string, number, string, number, number];
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

function prepareCandleStatements(db: Database.Database) {
  return {
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
    // Read in pages (keyset on the index's own order: start, then subject from the primary key;
    // width is fixed, so (start, subject) is unique) rather than with
    // iterate(): an iterator is a native object per call, and those must never be collected
    // (openSqliteDatabase).
    sumHourlyRowsPage: db.prepare<[string, number, number, number, string], CandleDbRow>(
      `SELECT ${CANDLE_COLUMNS} FROM candles
       WHERE network = ? AND kind = ? AND width = 3600 AND subject <> '' AND start <= ?
         AND (start, subject) > (?, ?)
       ORDER BY start, subject LIMIT ${SUM_HOURLY_PAGE}`,
    ),
    upsertCandle: db.prepare<[...CandleKey, ...CandleValues]>(
      `INSERT INTO candles (network, ${CANDLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, kind, subject, width, start) DO UPDATE SET open = excluded.open,
         high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume,
         quote_volume = excluded.quote_volume, trade_count = excluded.trade_count,
         volume_usd = excluded.volume_usd`,
    ),
    deleteCandle: db.prepare<CandleKey>(
      "DELETE FROM candles WHERE network = ? AND kind = ? AND subject = ? AND width = ? AND start = ?",
    ),
    // The expression of the candles_network_day index, so prune reads it.
    deleteCandlesBefore: db.prepare<[string, number]>(
      "DELETE FROM candles WHERE network = ? AND start / 86400 < ?",
    ),
    // The stored row is the bucket's earlier part (see Candle merging in buildCandles.ts).
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
  };
}

const key = (network: NetworkName, row: CandleId): CandleKey => [
  network,
  row.kind,
  row.subject,
  row.interval,
  row.start,
];

// One row's bound values, in the column order of both upserts.
const values = (network: NetworkName, row: CandleRow): [...CandleKey, ...CandleValues] => [
  ...key(network, row),
  optionalText(row.open),
  optionalText(row.high),
  optionalText(row.low),
  optionalText(row.close),
  row.volume.toString(),
  row.quoteVolume.toString(),
  row.tradeCount,
  optionalText(row.volumeUsd),
];

/** Rows of pages of SUM_HOURLY_PAGE, each from the last (start, subject) of the one before. */
function* hourlyRows(
  page: Database.Statement<[string, number, number, number, string], CandleDbRow>,
  network: string,
  kind: number,
  fromTimestamp: number,
  toTimestamp: number,
): Iterable<CandleDbRow> {
  // Every subject is non-empty: (fromTimestamp, '') is just before the first row at fromTimestamp.
  let after: [number, string] = [fromTimestamp, ""];
  for (;;) {
    const rows = page.all(network, kind, toTimestamp, ...after);
    yield* rows;
    if (rows.length < SUM_HOURLY_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = [Number(last.start), last.subject];
  }
}

function* mapIterable<T, U>(items: Iterable<T>, map: (item: T) => U): Iterable<U> {
  for (const item of items) yield map(item);
}

/**
 * The SQLite candles table. The usual commit appends: the batch's buckets are folded and merged
 * into the stored rows by the upsert itself, 64 rows a statement (measured: about 3 ms more per
 * head commit of 16 trades, 4x the time of a 2,000-trade backfill commit). Anything else (a
 * rollback, a re-commit) rebuilds the buckets it touched (buildCandleRebuildPlan).
 */
export function createSqliteCandles(db: Database.Database): {
  steps: Pick<
    WriteHandlers<NetworkName>,
    "mergeCandles" | "readFinerCandles" | "replaceCandles" | "deleteCandlesBefore"
  >;
  methods: Pick<Store, "listCandles" | "sumCandles">;
} {
  // Prepared on first use, after migrate() created the table.
  let statements: ReturnType<typeof prepareCandleStatements> | undefined;
  const s = () => (statements ??= prepareCandleStatements(db));
  return {
    steps: {
      mergeCandles(network, { rows }) {
        for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
          const chunk = rows.slice(i, i + CHUNK_ROWS);
          s()
            .mergeCandles(chunk.length)
            .run(...chunk.flatMap((row) => values(network, row)));
        }
      },
      readFinerCandles: (network, { parents }) =>
        parents.flatMap((p) =>
          s()
            .listCandles.all(network, p.kind, p.subject, p.finer, p.start, p.start + p.interval, -1)
            .map(decodeCandle),
        ),
      replaceCandles(network, { rows, remove }) {
        for (const row of rows) s().upsertCandle.run(...values(network, row));
        for (const row of remove) s().deleteCandle.run(...key(network, row));
      },
      deleteCandlesBefore(network, { day }) {
        s().deleteCandlesBefore.run(network, day);
      },
    },
    methods: {
      async listCandles(network, query) {
        assertCandleQuery(query);
        const { kind, subject } = subjectKey(query.subject);
        const from = bucketStart(query.fromTimestamp, query.interval);
        const to = query.toTimestamp ?? Number.MAX_SAFE_INTEGER;
        return s()
          .listCandles.all(network, kind, subject, query.interval, from, to, query.limit)
          .map((row) => candleOf(decodeCandle(row)));
      },
      async sumCandles(network, query) {
        assertCandleSumQuery(query);
        const kind = query.kind === "token" ? TOKEN_CANDLE : POOL_CANDLE;
        const totals = new Map<Address, CandleTotals>();
        if (query.subjects === undefined) {
          return sumCandleRows(
            mapIterable(
              hourlyRows(s().sumHourlyRowsPage, network, kind, query.fromTimestamp, query.toTimestamp),
              decodeCandle,
            ),
            totals,
          );
        }
        for (let i = 0; i < query.subjects.length; i += SUM_CANDLES_CHUNK) {
          const subjects = JSON.stringify(query.subjects.slice(i, i + SUM_CANDLES_CHUNK));
          // At most SUM_CANDLES_CHUNK series' buckets of the window: one all() per chunk.
          const rows = s().sumCandleRows.all(
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
    },
  };
}
