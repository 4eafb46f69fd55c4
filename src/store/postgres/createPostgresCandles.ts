import type postgres from "postgres";
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
import type { AsyncWriteHandlers, CandleId } from "../plan/writeSteps.js";
import { CANDLE_COLUMNS, type CandleDbRow, decodeCandle } from "../rowCodec.js";
import type { Store } from "../types.js";
import { nullableArray, plainArray, textArray } from "./arrayLiterals.js";
import type { PostgresWrite } from "./postgresWrite.js";

// How an upsert treats a stored row: replaced (a rebuilt bucket), or merged with the new row as
// its later part (an appended bucket: GREATEST and LEAST skip NULLs, numeric adds exactly; an
// unknown volume_usd, NULL, stays unknown).
const REPLACE = `open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
  volume = excluded.volume, quote_volume = excluded.quote_volume, trade_count = excluded.trade_count,
  volume_usd = excluded.volume_usd`;
const MERGE = `open = coalesce(candles.open, excluded.open), high = greatest(candles.high, excluded.high),
  low = least(candles.low, excluded.low), close = coalesce(excluded.close, candles.close),
  volume = candles.volume + excluded.volume, quote_volume = candles.quote_volume + excluded.quote_volume,
  trade_count = candles.trade_count + excluded.trade_count,
  volume_usd = candles.volume_usd + excluded.volume_usd`;

async function writeCandles(
  tx: postgres.TransactionSql,
  network: NetworkName,
  rows: readonly CandleRow[],
  how: typeof REPLACE | typeof MERGE,
): Promise<void> {
  if (rows.length === 0) return;
  await tx`INSERT INTO candles (network, ${tx.unsafe(CANDLE_COLUMNS)})
    SELECT ${network}::text, * FROM unnest(
      ${plainArray(rows.map((r) => r.kind))}::int2[],
      ${textArray(rows.map((r) => r.subject))}::text[],
      ${plainArray(rows.map((r) => r.interval))}::int4[],
      ${plainArray(rows.map((r) => r.start))}::int8[],
      ${nullableArray(rows.map((r) => r.open))}::numeric[],
      ${nullableArray(rows.map((r) => r.high))}::numeric[],
      ${nullableArray(rows.map((r) => r.low))}::numeric[],
      ${nullableArray(rows.map((r) => r.close))}::numeric[],
      ${plainArray(rows.map((r) => r.volume))}::numeric[],
      ${plainArray(rows.map((r) => r.quoteVolume))}::numeric[],
      ${plainArray(rows.map((r) => r.tradeCount))}::int8[],
      ${nullableArray(rows.map((r) => r.volumeUsd))}::numeric[])
    ON CONFLICT (network, kind, subject, width, start) DO UPDATE SET ${tx.unsafe(how)}`;
}

// Recomputes touch a few rows per series, and each is found by its whole primary key, one key per
// row of unnest in a LATERAL subquery (OFFSET 0 keeps it from being flattened into a join). As a
// plain join, a young table without statistics made PostgreSQL hash every row of a width instead
// (measured: 20-150 ms instead of 0.1 ms at 50k candles, growing with the table).
function lookup(
  tx: postgres.TransactionSql,
  network: NetworkName,
  ids: readonly CandleId[],
  columns: string,
) {
  return tx`unnest(
      ${plainArray(ids.map((r) => r.kind))}::int2[],
      ${textArray(ids.map((r) => r.subject))}::text[],
      ${plainArray(ids.map((r) => r.interval))}::int4[],
      ${plainArray(ids.map((r) => r.start))}::int8[]) AS id(kind, subject, width, start)
    CROSS JOIN LATERAL (SELECT ${tx.unsafe(columns)} FROM candles AS c WHERE c.network = ${network}
      AND c.kind = id.kind AND c.subject = id.subject AND c.width = id.width AND c.start = id.start
      OFFSET 0) AS c`;
}

/** The PostgreSQL candles table: each write step a few bulk statements, reads over the primary key. */
export function createPostgresCandles(sql: postgres.Sql): {
  steps: Pick<
    AsyncWriteHandlers<PostgresWrite>,
    "mergeCandles" | "readFinerCandles" | "replaceCandles" | "deleteCandlesBefore"
  >;
  methods: Pick<Store, "listCandles" | "sumCandles">;
} {
  return {
    steps: {
      async mergeCandles({ tx, network }, { rows }) {
        await writeCandles(tx, network, rows, MERGE);
      },
      async readFinerCandles({ tx, network }, { parents }) {
        // The stored rows of each finer bucket inside the parents (those that exist).
        const ids = parents.flatMap((p) =>
          Array.from({ length: p.interval / p.finer }, (_, i) => ({
            kind: p.kind,
            subject: p.subject,
            interval: p.finer,
            start: p.start + i * p.finer,
          })),
        );
        if (ids.length === 0) return [];
        const rows = await tx<CandleDbRow[]>`SELECT c.* FROM ${lookup(tx, network, ids, CANDLE_COLUMNS)}`;
        return rows.map(decodeCandle);
      },
      async replaceCandles({ tx, network }, { rows, remove }) {
        await writeCandles(tx, network, rows, REPLACE);
        if (remove.length === 0) return;
        // By row address: the rows are found as readFinerCandles finds them, then deleted with a TID scan.
        await tx`DELETE FROM candles WHERE ctid = ANY(ARRAY(SELECT c.ctid FROM ${lookup(tx, network, remove, "c.ctid")}))`;
      },
      async deleteCandlesBefore({ tx, network }, { day }) {
        // The expression of the candles_network_day index, so prune reads it.
        await tx`DELETE FROM candles WHERE network = ${network} AND start / 86400 < ${day}::int8`;
      },
    },
    methods: {
      async listCandles(network, query) {
        assertCandleQuery(query);
        const { kind, subject } = subjectKey(query.subject);
        const from = bucketStart(query.fromTimestamp, query.interval);
        const rows = await sql<CandleDbRow[]>`
          SELECT ${sql.unsafe(CANDLE_COLUMNS)} FROM candles
          WHERE network = ${network} AND kind = ${kind}::int2 AND subject = ${subject}
            AND width = ${query.interval}::int4 AND start >= ${from}::int8
            ${query.toTimestamp === undefined ? sql`` : sql`AND start < ${query.toTimestamp}::int8`}
          ORDER BY start LIMIT ${query.limit}::int4`;
        return rows.map((row) => candleOf(decodeCandle(row)));
      },
      async sumCandles(network, query) {
        assertCandleSumQuery(query);
        const kind = query.kind === "token" ? TOKEN_CANDLE : POOL_CANDLE;
        const totals = new Map<Address, CandleTotals>();
        if (query.subjects === undefined) {
          // The literal predicate of the partial index candles_hourly (width, subject) lets it be used. Streamed in batches.
          const cursor = sql<CandleDbRow[]>`SELECT ${sql.unsafe(CANDLE_COLUMNS)} FROM candles
            WHERE network = ${network} AND kind = ${kind}::int2 AND width = 3600
              AND subject <> '' AND start >= ${query.fromTimestamp}::int8 AND start <= ${query.toTimestamp}::int8`.cursor(
            2_000,
          );
          for await (const rows of cursor) sumCandleRows(rows.map(decodeCandle), totals);
          return totals;
        }
        const subjects = query.subjects;
        for (let i = 0; i < subjects.length; i += SUM_CANDLES_CHUNK) {
          // A primary-key range per subject (the LATERAL form, for the reason lookup() gives).
          const found = await sql<CandleDbRow[]>`SELECT c.* FROM unnest(
              ${textArray(subjects.slice(i, i + SUM_CANDLES_CHUNK))}::text[]) AS id(subject)
            CROSS JOIN LATERAL (SELECT ${sql.unsafe(CANDLE_COLUMNS)} FROM candles AS c
              WHERE c.network = ${network} AND c.kind = ${kind}::int2 AND c.subject = id.subject
                AND c.width = ${query.interval}::int4 AND c.start >= ${query.fromTimestamp}::int8
                AND c.start <= ${query.toTimestamp}::int8 OFFSET 0) AS c`;
          sumCandleRows(found.map(decodeCandle), totals);
        }
        return totals;
      },
    },
  };
}
