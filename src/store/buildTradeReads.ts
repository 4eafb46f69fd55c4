import type { NetworkName } from "../domain/types.js";
import {
  assertPoolLastPricesQuery,
  buildPoolCandleClosesSql,
  buildPoolMinuteTradesSql,
  isPoolLed,
  minuteSpans,
  type PoolCloseRow,
  pickPoolLastPrices,
} from "./buildPoolLastPricesSql.js";
import {
  assertPoolSwapSumQuery,
  buildPoolSwapSumSql,
  decodePoolSwapSums,
  type PoolSwapSumRow,
} from "./buildPoolSwapSumSql.js";
import {
  assertTradePageQuery,
  buildTradePageSql,
  buildTradeWindowSql,
  buildTradeWindowsSql,
  decodeTradeWindow,
  decodeTradeWindows,
  type SqlDialect,
  type SqlText,
  type TradeWindow,
} from "./buildTradePageSql.js";
import {
  assertTradeStatsQuery,
  buildLastCandleCloseSql,
  buildMinuteTradesSql,
  buildTradeStatsSql,
  decodeTradeStats,
  minuteStart,
  pickLastPrice,
} from "./buildTradeStatsSql.js";
import { decodeTrade, decodeTradeValues, type TradeRow } from "./rowCodec.js";
import type { Store } from "./types.js";

/** A statement of a read plan; `values`: its rows as arrays of their values (see decodeTradeValues). */
interface ReadStatement extends SqlText {
  values?: true;
}

/**
 * A read's statements in order, each resumed with its rows, as write plans are: SQLite runs every
 * statement of a plan at once (nothing commits between them), PostgreSQL awaits each.
 */
export type ReadPlan<T> = Generator<ReadStatement, T, unknown[]>;

/**
 * Where an engine runs a plan: `pages` on the sessions that read keyset pages (PostgreSQL: see
 * createPostgresStore), `snapshot` in one read-only snapshot, `plain` anywhere.
 */
export type ReadPlanRunner = <T>(plan: () => ReadPlan<T>, on: "pages" | "snapshot" | "plain") => Promise<T>;

type WindowRow = Parameters<typeof decodeTradeWindow>[0];

function* windowOf(
  dialect: SqlDialect,
  network: NetworkName,
  from: number,
  to: number | undefined,
): ReadPlan<TradeWindow> {
  const [row] = yield buildTradeWindowSql(dialect, network, from, to);
  return decodeTradeWindow(row as WindowRow, to);
}

/** The reads of trades, market stats, last prices and pool swap sums (see buildTradePageSql, buildTradeStatsSql) on either engine. */
export function buildTradeReads(
  dialect: SqlDialect,
  run: ReadPlanRunner,
): Pick<Store, "listTradePage" | "getTradeStats" | "getLastPrice" | "getPoolLastPrices" | "sumPoolSwaps"> {
  return {
    async listTradePage(network, query) {
      assertTradePageQuery(query);
      // No snapshot around the probe and the page: on PostgreSQL a transaction and its SET LOCALs
      // cost three more round trips than the page itself.
      return run(function* () {
        const window = yield* windowOf(dialect, network, query.fromTimestamp, query.toTimestamp);
        const page = buildTradePageSql(dialect, network, query, window);
        if (page === undefined) return [];
        // Rows as arrays of their values (see decodeTradeValues).
        const rows = yield { ...page, values: true };
        return (rows as unknown[][]).map(decodeTradeValues);
      }, "pages");
    },
    async getTradeStats(network, query) {
      assertTradeStatsQuery(query);
      // One snapshot for the probe and the aggregate.
      const row = await run(function* () {
        const window = yield* windowOf(
          dialect,
          network,
          Math.min(...query.fromTimestamps),
          query.toTimestamp,
        );
        const statement = buildTradeStatsSql(dialect, network, query, window);
        return statement === undefined ? undefined : (yield statement)[0];
      }, "snapshot");
      return decodeTradeStats(row as Record<string, unknown> | undefined, query.fromTimestamps);
    },
    async sumPoolSwaps(network, query) {
      assertPoolSwapSumQuery(query);
      const rows = await run(function* (): ReadPlan<unknown[]> {
        return yield buildPoolSwapSumSql(dialect, network, query);
      }, "plain");
      return decodePoolSwapSums(rows as PoolSwapSumRow[]);
    },
    async getLastPrice(network, query) {
      const { rows, close } = await run(function* () {
        const window = yield* windowOf(dialect, network, minuteStart(query), query.beforeTimestamp);
        const trades = buildMinuteTradesSql(dialect, network, query, window);
        const rows = trades === undefined ? [] : ((yield trades) as TradeRow[]);
        const [candle] = (yield buildLastCandleCloseSql(dialect, network, query)) as { close: string }[];
        return { rows, close: candle?.close };
      }, "snapshot");
      return pickLastPrice(
        query.subject,
        rows.map(decodeTrade),
        close === undefined ? undefined : BigInt(close),
      );
    },
    async getPoolLastPrices(network, query) {
      assertPoolLastPricesQuery(query);
      if (query.pools.length === 0) return new Map();
      // One snapshot, a fixed number of statements: the spans' block ranges (pool-led only), their
      // trades, the candle closes (buildPoolLastPricesSql).
      const { rows, closes } = await run(function* () {
        const spans = minuteSpans(query.instants);
        let rows: TradeRow[] = [];
        if (spans.length > 0) {
          let windows: TradeWindow[] | undefined;
          if (isPoolLed(query)) {
            const [row] = yield buildTradeWindowsSql(dialect, network, spans);
            windows = decodeTradeWindows(row as Parameters<typeof decodeTradeWindows>[0], spans);
          }
          const trades = buildPoolMinuteTradesSql(dialect, network, query, spans, windows);
          if (trades !== undefined) rows = (yield trades) as TradeRow[];
        }
        const closes = (yield buildPoolCandleClosesSql(dialect, network, query)) as PoolCloseRow[];
        return { rows, closes };
      }, "snapshot");
      return pickPoolLastPrices(query, rows, closes);
    },
  };
}
