import type Database from "better-sqlite3";
import type { NetworkName, Trade } from "../../domain/types.js";
import { TRADE_COLUMNS } from "../buildTradePageSql.js";
import type { TradeStepType, WriteHandlers } from "../plan/writeSteps.js";
import { decodeTrade, encodeMarks, encodePools, type TradeRow } from "../rowCodec.js";
import type { Store, StoredTrade } from "../types.js";
import { chunkedStatements, chunkSizes } from "./chunkedStatements.js";

/** What a deleted trade row hands back: its day aggregate and candle contributions. */
const REMOVED = `RETURNING ${TRADE_COLUMNS}, marks`;

/** A trade_pools row: network, pool, block_number, tx_index, log_index, seq. */
type TradePoolKey = [string, string, bigint, number, number, bigint];

function prepareTradeStatements(db: Database.Database) {
  return {
    deleteTrade: db.prepare<[string, string], TradeRow>(
      `DELETE FROM trades WHERE network = ? AND tx_hash = ? ${REMOVED}`,
    ),
    insertTrades: chunkedStatements(
      db,
      (values) => `INSERT INTO trades (network, tx_hash, log_index, block_number, timestamp, tx_index, sender,
         token_in, amount_in, token_out, amount_out, volume_usd, tracked, pools, marks) VALUES ${values}`,
      15,
    ),
    lastTrade: db.prepare<[string], { block_number: bigint; tx_index: bigint; log_index: bigint }>(
      `SELECT block_number, tx_index, log_index FROM trades WHERE network = ?
       ORDER BY block_number DESC, tx_index DESC, log_index DESC LIMIT 1`,
    ),
    listTradesBetween: db.prepare<[string, number, number], TradeRow>(
      `SELECT ${TRADE_COLUMNS}, marks FROM trades WHERE network = ? AND timestamp >= ? AND timestamp < ?`,
    ),
    deleteTradesAbove: db.prepare<[string, bigint], TradeRow>(
      `DELETE FROM trades WHERE network = ? AND block_number > ? ${REMOVED}`,
    ),
    deleteTradesBefore: db.prepare<[string, number]>(
      "DELETE FROM trades WHERE network = ? AND timestamp < ?",
    ),
    insertTradePools: chunkedStatements(
      db,
      (values) =>
        `INSERT INTO trade_pools (network, pool, block_number, tx_index, log_index, seq) VALUES ${values}`,
      6,
    ),
    deleteTradePool: db.prepare<TradePoolKey>(
      `DELETE FROM trade_pools WHERE network = ? AND pool = ? AND block_number = ? AND tx_index = ?
         AND log_index = ? AND seq = ?`,
    ),
    // The index rows of the trades the prune is about to delete, each found by its key (a pools
    // list as rows: see tradePoolsMigrationSql.ts).
    deleteTradePoolsBefore: db.prepare<[string, number]>(
      `DELETE FROM trade_pools WHERE (network, pool, block_number, tx_index, log_index, seq) IN (
         SELECT t.network, p.value, t.block_number, t.tx_index, t.log_index, t.seq
         FROM trades AS t, json_each('["' || replace(t.pools, ',', '","') || '"]') AS p
         WHERE t.network = ? AND t.timestamp < ? AND t.pools <> '')`,
    ),
    countTrades: db.prepare<[string, number], { n: bigint }>(
      "SELECT count(*) AS n FROM trades WHERE network = ? AND timestamp >= ?",
    ),
  };
}

/** The SQLite trades table: the write steps on it and its count (pages: buildTradeReads). */
export function createSqliteTrades(db: Database.Database): {
  steps: Pick<WriteHandlers<NetworkName>, TradeStepType>;
  methods: Pick<Store, "countTrades">;
} {
  // Prepared on first use, after migrate() created the table.
  let statements: ReturnType<typeof prepareTradeStatements> | undefined;
  const s = () => (statements ??= prepareTradeStatements(db));

  // One trade's row values, appended to a multi-row statement's.
  const pushValues = (values: unknown[], network: NetworkName, t: Trade) => {
    values.push(
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
  };

  // trade_pools follows trades row for row: a pool listed twice in one trade is indexed once.
  const unindex = (network: NetworkName, removed: readonly StoredTrade[]) => {
    const statement = s().deleteTradePool;
    for (const t of removed) {
      for (const pool of new Set(t.pools))
        statement.run(network, pool, t.blockNumber, t.txIndex, t.logIndex, t.seq);
    }
  };

  return {
    steps: {
      deleteTradesOf(network, { trades }) {
        const removed: StoredTrade[] = [];
        const statement = s().deleteTrade;
        for (const txHash of new Set(trades.map((t) => t.txHash))) {
          for (const old of statement.all(network, txHash)) removed.push(decodeTrade(old));
        }
        unindex(network, removed);
        return removed;
      },
      deleteTradesAbove(network, { blockNumber }) {
        const removed = s().deleteTradesAbove.all(network, blockNumber).map(decodeTrade);
        unindex(network, removed);
        return removed;
      },
      deleteTradesBefore(network, { timestamp }) {
        s().deleteTradePoolsBefore.run(network, timestamp);
        s().deleteTradesBefore.run(network, timestamp);
      },
      readLastPosition(network) {
        const row = s().lastTrade.get(network);
        return row === undefined
          ? undefined
          : { blockNumber: row.block_number, txIndex: Number(row.tx_index), logIndex: Number(row.log_index) };
      },
      // Up to 64 trades a statement run (chunkSizes), and their trade_pools rows likewise (a run per
      // row was the trades' largest cost in a backfill's profile).
      insertTrades(network, { trades }) {
        const { insertTrades, insertTradePools } = s();
        const keys: unknown[] = [];
        let i = 0;
        for (const rows of chunkSizes(trades.length)) {
          const chunk = trades.slice(i, i + rows);
          i += rows;
          const values: unknown[] = [];
          for (const t of chunk) pushValues(values, network, t);
          // AUTOINCREMENT: one statement's rows take consecutive seqs, the last one lastInsertRowid.
          const last = BigInt(insertTrades(rows).run(...values).lastInsertRowid);
          for (const [k, t] of chunk.entries()) {
            const seq = last - BigInt(rows - 1 - k);
            for (const pool of new Set(t.pools))
              keys.push(network, pool, t.blockNumber, t.txIndex, t.logIndex, seq);
          }
        }
        let at = 0;
        for (const rows of chunkSizes(keys.length / 6)) {
          insertTradePools(rows).run(...keys.slice(at, at + rows * 6));
          at += rows * 6;
        }
      },
      readTradesBetween: (network, { from, to }) =>
        s().listTradesBetween.all(network, from, to).map(decodeTrade),
    },
    methods: {
      async countTrades(network, sinceTimestamp) {
        return Number(s().countTrades.get(network, sinceTimestamp)!.n);
      },
    },
  };
}
