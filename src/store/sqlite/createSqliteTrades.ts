import type Database from "better-sqlite3";
import type { NetworkName, Trade } from "../../domain/types.js";
import { TRADE_COLUMNS } from "../buildTradePageSql.js";
import type { TradeStepType, WriteHandlers } from "../plan/writeSteps.js";
import { decodeTrade, encodeMarks, encodePools, type TradeRow } from "../rowCodec.js";
import type { Store, StoredTrade } from "../types.js";

/** What a deleted trade row hands back: its day aggregate and candle contributions. */
const REMOVED = `RETURNING ${TRADE_COLUMNS}, marks`;

type TradeValues = [
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
];

/** A trade_pools row: network, pool, block_number, tx_index, log_index, seq. */
type TradePoolKey = [string, string, bigint, number, number, bigint];

function prepareTradeStatements(db: Database.Database) {
  return {
    deleteTrade: db.prepare<[string, string], TradeRow>(
      `DELETE FROM trades WHERE network = ? AND tx_hash = ? ${REMOVED}`,
    ),
    insertTrade: db.prepare<TradeValues>(
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
    deleteTradesAbove: db.prepare<[string, bigint], TradeRow>(
      `DELETE FROM trades WHERE network = ? AND block_number > ? ${REMOVED}`,
    ),
    deleteTradesBefore: db.prepare<[string, number]>(
      "DELETE FROM trades WHERE network = ? AND timestamp < ?",
    ),
    insertTradePool: db.prepare<TradePoolKey>(
      `INSERT INTO trade_pools (network, pool, block_number, tx_index, log_index, seq) VALUES (?, ?, ?, ?, ?, ?)`,
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

  const insert = (statement: Database.Statement<TradeValues>, network: NetworkName, t: Trade) =>
    statement.run(
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
    ).lastInsertRowid;

  // trade_pools follows trades row for row: a pool listed twice in one trade is indexed once.
  const indexPools = (
    network: NetworkName,
    t: Trade,
    seq: bigint,
    statement: Database.Statement<TradePoolKey>,
  ) => {
    for (const pool of new Set(t.pools))
      statement.run(network, pool, t.blockNumber, t.txIndex, t.logIndex, seq);
  };
  const unindex = (network: NetworkName, removed: readonly StoredTrade[]) => {
    const statement = s().deleteTradePool;
    for (const t of removed) indexPools(network, t, t.seq, statement);
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
      insertTrades(network, { trades }) {
        const { insertTrade, insertTradePool } = s();
        for (const t of trades)
          indexPools(network, t, BigInt(insert(insertTrade, network, t)), insertTradePool);
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
