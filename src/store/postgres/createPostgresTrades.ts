import type postgres from "postgres";
import type { Trade } from "../../domain/types.js";
import { TRADE_COLUMNS } from "../buildTradePageSql.js";
import type { AsyncWriteHandlers, TradeStepType } from "../plan/writeSteps.js";
import { decodeTrade, encodeMarks, encodePools, type TradeRow } from "../rowCodec.js";
import type { Store, StoredTrade } from "../types.js";
import { nullableTextArray, plainArray, textArray } from "./arrayLiterals.js";
import type { PostgresWrite } from "./postgresWrite.js";

/** The tx_hash array literal of a batch's trades, made once for its delete and its insert. */
function txHashes(write: PostgresWrite, trades: readonly Trade[]): string {
  if (write.txHashes?.trades !== trades) {
    write.txHashes = { trades, literal: textArray(trades.map((t) => t.txHash)) };
  }
  return write.txHashes.literal;
}

/** A trades row's pools as rows `p(pool)` (string_to_array of "" is empty: a trade without pools has none). */
const POOLS_OF = (alias: string) => `unnest(string_to_array(${alias}.pools, ',')) AS p(pool)`;

/**
 * Deletes the trade_pools rows of trades just deleted (found by key; a pool listed twice in one
 * trade is deleted once, as it was indexed once). Nothing to do, no statement.
 */
async function unindex(tx: postgres.TransactionSql, network: string, removed: readonly StoredTrade[]) {
  const rows = removed.flatMap((t) => [...new Set(t.pools)].map((pool) => ({ pool, t })));
  if (rows.length === 0) return;
  await tx`DELETE FROM trade_pools WHERE (network, pool, block_number, tx_index, log_index, seq) IN (
    SELECT ${network}::text, * FROM unnest(
      ${textArray(rows.map((row) => row.pool))}::text[],
      ${plainArray(rows.map((row) => row.t.blockNumber))}::int8[],
      ${plainArray(rows.map((row) => row.t.txIndex))}::int4[],
      ${plainArray(rows.map((row) => row.t.logIndex))}::int4[],
      ${plainArray(rows.map((row) => row.t.seq))}::int8[]))`;
}

/** The PostgreSQL trades table: the write steps on it (one bulk statement each) and its count (pages: buildTradeReads). */
export function createPostgresTrades(sql: postgres.Sql): {
  steps: Pick<AsyncWriteHandlers<PostgresWrite>, TradeStepType>;
  methods: Pick<Store, "countTrades">;
} {
  return {
    steps: {
      async deleteTradesOf(write, { trades }) {
        const { tx, network } = write;
        const removed = await tx<TradeRow[]>`DELETE FROM trades WHERE network = ${network}
          AND tx_hash = ANY(${txHashes(write, trades)}::text[]) RETURNING ${tx.unsafe(TRADE_COLUMNS)}, marks`;
        const deleted = removed.map(decodeTrade);
        await unindex(tx, network, deleted);
        return deleted;
      },
      async deleteTradesAbove({ tx, network }, { blockNumber }) {
        const removed = await tx<TradeRow[]>`DELETE FROM trades
          WHERE network = ${network} AND block_number > ${blockNumber.toString()}::int8
          RETURNING ${tx.unsafe(TRADE_COLUMNS)}, marks`;
        const trades = removed.map(decodeTrade);
        await unindex(tx, network, trades);
        return trades;
      },
      async deleteTradesBefore({ tx, network }, { timestamp }) {
        // A window's oldest day at once: the pruned trades' index rows are joined in SQL, not sent back.
        await tx`WITH pruned AS (
            DELETE FROM trades WHERE network = ${network} AND timestamp < ${timestamp}::int8
            RETURNING network, pools, block_number, tx_index, log_index, seq)
          DELETE FROM trade_pools AS tp USING pruned AS t, ${tx.unsafe(POOLS_OF("t"))}
          WHERE tp.network = t.network AND tp.pool = p.pool AND tp.block_number = t.block_number
            AND tp.tx_index = t.tx_index AND tp.log_index = t.log_index AND tp.seq = t.seq`;
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
        // One statement: the trades get their seq, trade_pools one row per trade and distinct pool.
        await tx`WITH inserted AS (INSERT INTO trades (network, tx_hash, log_index, block_number, timestamp,
            tx_index, sender, token_in, amount_in, token_out, amount_out, volume_usd, tracked, pools, marks)
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
            ${nullableTextArray(trades.map((t) => (t.marks === undefined ? undefined : encodeMarks(t, t.marks))))}::text[])
          RETURNING network, pools, block_number, tx_index, log_index, seq)
          INSERT INTO trade_pools (network, pool, block_number, tx_index, log_index, seq)
          SELECT DISTINCT t.network, p.pool, t.block_number, t.tx_index, t.log_index, t.seq
          FROM inserted AS t, ${tx.unsafe(POOLS_OF("t"))}`;
      },
      async readTradesBetween({ tx, network }, { from, to }) {
        const rows = await tx<TradeRow[]>`SELECT ${tx.unsafe(TRADE_COLUMNS)}, marks FROM trades
          WHERE network = ${network} AND timestamp >= ${from}::int8 AND timestamp < ${to}::int8`;
        return rows.map(decodeTrade);
      },
    },
    methods: {
      async countTrades(network, sinceTimestamp) {
        const [row] = await sql<{ n: string }[]>`
          SELECT count(*) AS n FROM trades WHERE network = ${network} AND timestamp >= ${sinceTimestamp}::int8`;
        return Number(row!.n);
      },
    },
  };
}
