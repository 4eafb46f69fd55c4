import type Database from "better-sqlite3";
import type { NetworkName, Trade } from "../../domain/types.js";
import {
  assertTradePageQuery,
  buildTradePageSql,
  buildTradeWindowSql,
  decodeTradeWindow,
  TRADE_COLUMNS,
} from "../buildTradePageSql.js";
import type { WriteHandlers } from "../plan/writeSteps.js";
import { decodeTrade, decodeTradeValues, encodeMarks, encodePools, type TradeRow } from "../rowCodec.js";
import type { Store } from "../types.js";
import { createStatementCache } from "./createStatementCache.js";

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
    countTrades: db.prepare<[string, number], { n: bigint }>(
      "SELECT count(*) AS n FROM trades WHERE network = ? AND timestamp >= ?",
    ),
    listTrades: db.prepare<[string, number], TradeRow>(
      `SELECT ${TRADE_COLUMNS}, marks FROM trades WHERE network = ? AND timestamp >= ?
       ORDER BY block_number, tx_index, log_index, seq`,
    ),
  };
}

type TradeStepTypes =
  | "deleteTradesOf"
  | "deleteTradesAbove"
  | "deleteTradesBefore"
  | "readLastPosition"
  | "insertTrades"
  | "readTradesBetween";

/** The SQLite trades table: the write steps on it and the reads of trades. */
export function createSqliteTrades(db: Database.Database): {
  steps: Pick<WriteHandlers<NetworkName>, TradeStepTypes>;
  methods: Pick<Store, "listTrades" | "listTradePage" | "countTrades">;
} {
  // Prepared on first use, after migrate() created the table.
  let statements: ReturnType<typeof prepareTradeStatements> | undefined;
  const s = () => (statements ??= prepareTradeStatements(db));

  // Page statements vary with the filters given: a handful of shapes, each prepared once.
  const prepared = createStatementCache(db);

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
    );

  return {
    steps: {
      deleteTradesOf(network, { trades }) {
        const removed: Trade[] = [];
        const statement = s().deleteTrade;
        for (const txHash of new Set(trades.map((t) => t.txHash))) {
          for (const old of statement.all(network, txHash)) removed.push(decodeTrade(old));
        }
        return removed;
      },
      deleteTradesAbove: (network, { blockNumber }) =>
        s().deleteTradesAbove.all(network, blockNumber).map(decodeTrade),
      deleteTradesBefore(network, { timestamp }) {
        s().deleteTradesBefore.run(network, timestamp);
      },
      readLastPosition(network) {
        const row = s().lastTrade.get(network);
        return row === undefined
          ? undefined
          : { blockNumber: row.block_number, txIndex: Number(row.tx_index), logIndex: Number(row.log_index) };
      },
      insertTrades(network, { trades }) {
        const statement = s().insertTrade;
        for (const t of trades) insert(statement, network, t);
      },
      readTradesBetween: (network, { from, to }) =>
        s().listTradesBetween.all(network, from, to).map(decodeTrade),
    },
    methods: {
      async listTrades(network, sinceTimestamp) {
        return s().listTrades.all(network, sinceTimestamp).map(decodeTrade);
      },
      async listTradePage(network, query) {
        assertTradePageQuery(query);
        const probe = buildTradeWindowSql("sqlite", network, query.fromTimestamp, query.toTimestamp);
        const bounds = prepared(probe.text).get(...probe.params) as Parameters<typeof decodeTradeWindow>[0];
        const page = buildTradePageSql(
          "sqlite",
          network,
          query,
          decodeTradeWindow(bounds, query.toTimestamp),
        );
        if (page === undefined) return [];
        return (prepared(page.text, true).all(...page.params) as unknown[][]).map(decodeTradeValues);
      },
      async countTrades(network, sinceTimestamp) {
        return Number(s().countTrades.get(network, sinceTimestamp)!.n);
      },
    },
  };
}
