import type postgres from "postgres";
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

type WindowRow = Parameters<typeof decodeTradeWindow>[0];

const pgParams = (statement: SqlText): (string | number)[] =>
  statement.params.map((value) => (typeof value === "bigint" ? value.toString() : value));

/** The PostgreSQL reads behind market stats (see buildTradeStatsSql). */
export function createPostgresTradeStats(
  sql: postgres.Sql,
): Pick<Store, "getTradeStats" | "getLastPrice" | "sumPoolSwaps"> {
  const run = async <T>(tx: postgres.TransactionSql | postgres.Sql, statement: SqlText) =>
    (await tx.unsafe(statement.text, pgParams(statement), { prepare: true })) as unknown as T[];
  const windowOf = async (tx: postgres.TransactionSql, network: string, from: number, to: number) => {
    const [row] = await run<WindowRow>(tx, buildTradeWindowSql("postgres", network as never, from, to));
    return decodeTradeWindow(row!, to);
  };

  return {
    async getTradeStats(network, query) {
      assertTradeStatsQuery(query);
      // One snapshot for the probe and the aggregate.
      const row = await sql.begin("read only", async (tx) => {
        const window = await windowOf(tx, network, Math.min(...query.fromTimestamps), query.toTimestamp);
        const statement = buildTradeStatsSql("postgres", network, query, window);
        return statement === undefined ? undefined : (await run<Record<string, unknown>>(tx, statement))[0];
      });
      return decodeTradeStats(row, query.fromTimestamps);
    },
    async sumPoolSwaps(network, query) {
      assertPoolSwapSumQuery(query);
      return decodePoolSwapSums(
        await run<PoolSwapSumRow>(sql, buildPoolSwapSumSql("postgres", network, query)),
      );
    },
    async getLastPrice(network, query) {
      const { rows, close } = await sql.begin("read only", async (tx) => {
        const window = await windowOf(tx, network, minuteStart(query), query.beforeTimestamp);
        const trades = buildMinuteTradesSql("postgres", network, query, window);
        const rows = trades === undefined ? [] : await run<TradeRow>(tx, trades);
        const [candle] = await run<{ close: string }>(
          tx,
          buildLastCandleCloseSql("postgres", network, query),
        );
        return { rows, close: candle?.close };
      });
      return pickLastPrice(
        query.subject,
        rows.map(decodeTrade),
        close === undefined ? undefined : BigInt(close),
      );
    },
  };
}
