import type postgres from "postgres";
import type { Trade } from "../../domain/types.js";
import {
  assertTradePageQuery,
  buildTradePageSql,
  buildTradeWindowSql,
  decodeTradeWindow,
  type SqlText,
  TRADE_COLUMNS,
} from "../buildTradePageSql.js";
import type { AsyncWriteHandlers } from "../plan/writeSteps.js";
import { decodeTrade, decodeTradeValues, encodeMarks, encodePools, type TradeRow } from "../rowCodec.js";
import type { Store } from "../types.js";
import { nullableTextArray, plainArray, textArray } from "./arrayLiterals.js";
import type { PostgresWrite } from "./postgresWrite.js";

/** Parameters as postgres.js takes them: bigints as decimal text (the statement casts them to int8). */
function pgParams(statement: SqlText): (string | number)[] {
  return statement.params.map((value) => (typeof value === "bigint" ? value.toString() : value));
}

/** The tx_hash array literal of a batch's trades, made once for its delete and its insert. */
function txHashes(write: PostgresWrite, trades: readonly Trade[]): string {
  if (write.txHashes?.trades !== trades) {
    write.txHashes = { trades, literal: textArray(trades.map((t) => t.txHash)) };
  }
  return write.txHashes.literal;
}

type TradeStepTypes =
  | "deleteTradesOf"
  | "deleteTradesAbove"
  | "deleteTradesBefore"
  | "readLastPosition"
  | "insertTrades"
  | "readTradesBetween";

/**
 * The PostgreSQL trades table: the write steps on it (one bulk statement each) and the reads of
 * trades; `pages` is the pool of sessions that read keyset pages (see createPostgresStore).
 */
export function createPostgresTrades(
  sql: postgres.Sql,
  pages: postgres.Sql,
): {
  steps: Pick<AsyncWriteHandlers<PostgresWrite>, TradeStepTypes>;
  methods: Pick<Store, "listTrades" | "listTradePage" | "countTrades">;
} {
  return {
    steps: {
      async deleteTradesOf(write, { trades }) {
        const { tx, network } = write;
        const removed = await tx<TradeRow[]>`DELETE FROM trades WHERE network = ${network}
          AND tx_hash = ANY(${txHashes(write, trades)}::text[]) RETURNING ${tx.unsafe(TRADE_COLUMNS)}, marks`;
        return removed.map(decodeTrade);
      },
      async deleteTradesAbove({ tx, network }, { blockNumber }) {
        const removed = await tx<TradeRow[]>`DELETE FROM trades
          WHERE network = ${network} AND block_number > ${blockNumber.toString()}::int8
          RETURNING ${tx.unsafe(TRADE_COLUMNS)}, marks`;
        return removed.map(decodeTrade);
      },
      async deleteTradesBefore({ tx, network }, { timestamp }) {
        await tx`DELETE FROM trades WHERE network = ${network} AND timestamp < ${timestamp}::int8`;
      },
      async readLastPosition({ tx, network }) {
        const [row] = await tx<{ block_number: string; tx_index: number; log_index: number }[]>`
          SELECT block_number, tx_index, log_index FROM trades WHERE network = ${network}
          ORDER BY block_number DESC, tx_index DESC, log_index DESC LIMIT 1`;
        return row === undefined
          ? undefined
          : { blockNumber: BigInt(row.block_number), txIndex: row.tx_index, logIndex: row.log_index };
      },
      async insertTrades(write, { trades }) {
        const { tx, network } = write;
        await tx`INSERT INTO trades (network, tx_hash, log_index, block_number, timestamp, tx_index, sender,
            token_in, amount_in, token_out, amount_out, volume_usd, tracked, pools, marks)
          SELECT ${network}::text, * FROM unnest(
            ${txHashes(write, trades)}::text[],
            ${plainArray(trades.map((t) => t.logIndex))}::int4[],
            ${plainArray(trades.map((t) => t.blockNumber))}::int8[],
            ${plainArray(trades.map((t) => t.timestamp))}::int8[],
            ${plainArray(trades.map((t) => t.txIndex))}::int4[],
            ${textArray(trades.map((t) => t.sender))}::text[],
            ${textArray(trades.map((t) => t.tokenIn))}::text[],
            ${plainArray(trades.map((t) => t.amountIn))}::numeric[],
            ${textArray(trades.map((t) => t.tokenOut))}::text[],
            ${plainArray(trades.map((t) => t.amountOut))}::numeric[],
            ${plainArray(trades.map((t) => t.volumeUsd))}::numeric[],
            ${plainArray(trades.map((t) => t.tracked))}::bool[],
            ${textArray(trades.map((t) => encodePools(t.pools)))}::text[],
            ${nullableTextArray(trades.map((t) => (t.marks === undefined ? undefined : encodeMarks(t, t.marks))))}::text[])`;
      },
      async readTradesBetween({ tx, network }, { from, to }) {
        const rows = await tx<TradeRow[]>`SELECT ${tx.unsafe(TRADE_COLUMNS)}, marks FROM trades
          WHERE network = ${network} AND timestamp >= ${from}::int8 AND timestamp < ${to}::int8`;
        return rows.map(decodeTrade);
      },
    },
    methods: {
      async listTrades(network, sinceTimestamp) {
        const rows = await sql<
          TradeRow[]
        >`SELECT seq, network, tx_hash, block_number, timestamp, tx_index, sender, token_in, amount_in,
          token_out, amount_out, volume_usd, tracked, pools, log_index, marks FROM trades
          WHERE network = ${network} AND timestamp >= ${sinceTimestamp}::int8
          ORDER BY block_number, tx_index, log_index, seq`;
        return rows.map(decodeTrade);
      },
      async listTradePage(network, query) {
        assertTradePageQuery(query);
        // Two statements on the page sessions (see createPostgresStore), no transaction around them:
        // a transaction and its SET LOCALs cost three more round trips than the page itself.
        const probe = buildTradeWindowSql("postgres", network, query.fromTimestamp, query.toTimestamp);
        const [bounds] = await pages.unsafe<Parameters<typeof decodeTradeWindow>[0][]>(
          probe.text,
          pgParams(probe),
          { prepare: true },
        );
        const page = buildTradePageSql(
          "postgres",
          network,
          query,
          decodeTradeWindow(bounds!, query.toTimestamp),
        );
        if (page === undefined) return [];
        // Rows as arrays of their values, as on SQLite (see decodeTradeValues).
        const rows = await pages.unsafe(page.text, pgParams(page), { prepare: true }).values();
        return rows.map(decodeTradeValues);
      },
      async countTrades(network, sinceTimestamp) {
        const [row] = await sql<{ n: string }[]>`
          SELECT count(*) AS n FROM trades WHERE network = ${network} AND timestamp >= ${sinceTimestamp}::int8`;
        return Number(row!.n);
      },
    },
  };
}
