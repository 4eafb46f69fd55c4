import type Database from "better-sqlite3";
import {
  assertPoolSwapSumQuery,
  buildPoolSwapSumSql,
  decodePoolSwapSums,
  type PoolSwapSumRow,
} from "../buildPoolSwapSumSql.js";
import { buildTradeWindowSql, decodeTradeWindow, type SqlText } from "../buildTradePageSql.js";
import {
  assertTradeStatsQuery,
  buildLastCandleCloseSql,
  buildMinuteTradesSql,
  buildTradeStatsSql,
  decodeTradeStats,
  minuteStart,
  pickLastPrice,
} from "../buildTradeStatsSql.js";
import { decodeTrade, type TradeRow } from "../rowCodec.js";
import type { Store } from "../types.js";
import { createStatementCache } from "./createStatementCache.js";

type WindowRow = Parameters<typeof decodeTradeWindow>[0];

/** The SQLite reads behind market stats (see buildTradeStatsSql). */
export function createSqliteTradeStats(
  db: Database.Database,
): Pick<Store, "getTradeStats" | "getLastPrice" | "sumPoolSwaps"> {
  // A handful of statement shapes (per subject kind and window count), each prepared once.
  const cache = createStatementCache(db);
  const prepared = (statement: SqlText) => cache(statement.text);
  const windowOf = (network: string, from: number, to: number) => {
    const probe = buildTradeWindowSql("sqlite", network as never, from, to);
    return decodeTradeWindow(prepared(probe).get(...probe.params) as WindowRow, to);
  };

  return {
    async getTradeStats(network, query) {
      assertTradeStatsQuery(query);
      const window = windowOf(network, Math.min(...query.fromTimestamps), query.toTimestamp);
      const statement = buildTradeStatsSql("sqlite", network, query, window);
      const row = statement === undefined ? undefined : prepared(statement).get(...statement.params);
      return decodeTradeStats(row as Record<string, unknown> | undefined, query.fromTimestamps);
    },
    async sumPoolSwaps(network, query) {
      assertPoolSwapSumQuery(query);
      const statement = buildPoolSwapSumSql("sqlite", network, query);
      return decodePoolSwapSums(prepared(statement).all(...statement.params) as PoolSwapSumRow[]);
    },
    async getLastPrice(network, query) {
      const window = windowOf(network, minuteStart(query), query.beforeTimestamp);
      const trades = buildMinuteTradesSql("sqlite", network, query, window);
      const rows = trades === undefined ? [] : (prepared(trades).all(...trades.params) as TradeRow[]);
      const candle = buildLastCandleCloseSql("sqlite", network, query);
      const close = (prepared(candle).get(...candle.params) as { close: string } | undefined)?.close;
      return pickLastPrice(
        query.subject,
        rows.map(decodeTrade),
        close === undefined ? undefined : BigInt(close),
      );
    },
  };
}
