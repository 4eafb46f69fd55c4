import type { CandleSubject } from "../domain/market.js";
import type { LastPriceQuery, TradeStatsQuery, TradeWindowTotals } from "../domain/tradeStats.js";
import type { NetworkName, Trade } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import { bucketStart, tradeCandleSamples } from "./buildCandles.js";
import {
  placeholders,
  type SqlDialect,
  type SqlText,
  TRADE_COLUMNS,
  type TradeWindow,
} from "./buildTradePageSql.js";

// Market stats are read from the trades over the time window's block range, one aggregate
// statement for every window at once (the longest window's range is scanned once):
// - a token's trades come from the token_in and token_out indexes (a union of two index ranges);
//   a trade buys the token when it ends in it (token_out) and sells it when it starts with it
//   (token_in); a cycle does both;
// - a pool's trades are those whose pools list holds it (the block index's range, checked row by
//   row); the direction at the pool is its first crossing's hop in the trade's marks (1 = token0
//   in: a sell of token0; 0 = token1 in: a buy of token0). Trades without marks (indexed before
//   candles) are in the volume but neither buys nor sells.

const MINUTE = 60;

/** The candle series row key of a subject (kind 0 token, 1 pool) and its address. */
function seriesOf(subject: CandleSubject): { kind: 0 | 1; address: string } {
  return subject.kind === "token" ? { kind: 0, address: subject.token } : { kind: 1, address: subject.pool };
}

/** Throws BadRequestError for windows that do not end after they start. */
export function assertTradeStatsQuery(query: TradeStatsQuery): void {
  const ok = query.fromTimestamps.every(
    (from) => Number.isInteger(from) && from >= 0 && from < query.toTimestamp,
  );
  if (!ok || query.fromTimestamps.length === 0 || !Number.isInteger(query.toTimestamp)) {
    throw new BadRequestError("Invalid market stats windows.", {
      details: `got [${query.fromTimestamps.join(", ")}] to ${query.toTimestamp}`,
    });
  }
}

/** The WHERE terms that pick a subject's trades, and its buy and sell conditions. */
function subjectTerms(
  dialect: SqlDialect,
  subject: CandleSubject,
  withNative: boolean,
  p: ReturnType<typeof placeholders>["p"],
): { filter: () => string; buy: () => string; sell: () => string } {
  if (subject.kind === "token") {
    const list = () =>
      withNative ? `(${p(subject.token, "text")}, ${p("", "text")})` : `(${p(subject.token, "text")})`;
    return {
      filter: () => `(token_in IN ${list()} OR token_out IN ${list()})`,
      buy: () => `token_out IN ${list()}`,
      sell: () => `token_in IN ${list()}`,
    };
  }
  const pool = () => p(subject.pool, "text");
  const hop = () =>
    dialect === "sqlite"
      ? `hop_zero_for_one(pools, marks, ${pool()})`
      : `left(split_part(split_part(marks, '|', 4), ';', array_position(string_to_array(pools, ','), ${pool()})), 1)`;
  return {
    filter: () => (dialect === "sqlite" ? `instr(pools, ${pool()}) > 0` : `strpos(pools, ${pool()}) > 0`),
    buy: () => `${hop()} = '0'`,
    sell: () => `${hop()} = '1'`,
  };
}

/** The block range condition of a window (undefined: no trade can match). */
function blockRange(
  window: TradeWindow,
  maxBlock: bigint,
  p: ReturnType<typeof placeholders>["p"],
): (() => string) | undefined {
  if (window.firstBlock === undefined || window.empty) return undefined;
  const end = window.lastBlock === undefined || window.lastBlock > maxBlock ? maxBlock : window.lastBlock;
  if (end < window.firstBlock) return undefined;
  const first = window.firstBlock;
  return () => `block_number >= ${p(first, "int8")} AND block_number <= ${p(end, "int8")}`;
}

/**
 * One statement counting every window of a stats query: per window i the columns buys_i, sells_i,
 * buyers_i, sellers_i and volume_i. `window` is the block range of the longest window (from the
 * window probe). undefined: every window is empty without asking.
 */
export function buildTradeStatsSql(
  dialect: SqlDialect,
  network: NetworkName,
  query: TradeStatsQuery,
  window: TradeWindow,
): SqlText | undefined {
  const { params, p } = placeholders(dialect);
  const range = blockRange(window, query.maxBlock, p);
  if (range === undefined) return undefined;
  const terms = subjectTerms(dialect, query.subject, query.withNative, p);
  const from = Math.min(...query.fromTimestamps);
  const sum = dialect === "sqlite" ? "big_sum(volume_usd)" : "sum(volume_usd)";
  const columns = query.fromTimestamps.map((start, i) => {
    return [
      `count(*) FILTER (WHERE ts >= ${p(start, "int8")} AND is_buy = 1) AS buys_${i}`,
      `count(*) FILTER (WHERE ts >= ${p(start, "int8")} AND is_sell = 1) AS sells_${i}`,
      `count(DISTINCT sender) FILTER (WHERE ts >= ${p(start, "int8")} AND is_buy = 1) AS buyers_${i}`,
      `count(DISTINCT sender) FILTER (WHERE ts >= ${p(start, "int8")} AND is_sell = 1) AS sellers_${i}`,
      `${sum} FILTER (WHERE ts >= ${p(start, "int8")}) AS volume_${i}`,
    ].join(", ");
  });
  // The inner read picks the rows; the outer aggregates evaluate the window conditions on them.
  // Placeholders are made in text order (SQLite binds `?` by position): the columns come first.
  const inner = `SELECT timestamp AS ts, sender, volume_usd,
      CASE WHEN ${terms.buy()} THEN 1 ELSE 0 END AS is_buy,
      CASE WHEN ${terms.sell()} THEN 1 ELSE 0 END AS is_sell
    FROM trades WHERE network = ${p(network, "text")} AND ${range()} AND ${terms.filter()}
      AND +timestamp >= ${p(from, "int8")} AND +timestamp < ${p(query.toTimestamp, "int8")}`;
  return { text: `SELECT ${columns.join(", ")} FROM (${inner}) AS picked`, params };
}

/** Reads the stats statement's row (counts arrive as string, bigint or number; a sum of no rows as null). */
export function decodeTradeStats(
  row: Record<string, unknown> | undefined,
  windows: number,
): TradeWindowTotals[] {
  return Array.from({ length: windows }, (_, i) => {
    const count = (name: string) => Number((row?.[`${name}_${i}`] as string | number | bigint | null) ?? 0);
    const volume = row?.[`volume_${i}`] as string | null | undefined;
    return {
      buys: count("buys"),
      sells: count("sells"),
      buyers: count("buyers"),
      sellers: count("sellers"),
      volumeUsd: volume === null || volume === undefined ? 0n : BigInt(volume),
    };
  });
}

/**
 * The newest priced minute candle of the series that starts before the minute holding
 * `beforeTimestamp`: the price the series had at that minute's start. One walk back over the
 * candles' primary key.
 */
export function buildLastCandleCloseSql(
  dialect: SqlDialect,
  network: NetworkName,
  query: LastPriceQuery,
): SqlText {
  const { params, p } = placeholders(dialect);
  const { kind, address } = seriesOf(query.subject);
  const text = `SELECT close FROM candles WHERE network = ${p(network, "text")} AND kind = ${p(kind, "int4")}
      AND subject = ${p(address, "text")} AND width = ${p(MINUTE, "int4")}
      AND start < ${p(bucketStart(query.beforeTimestamp, MINUTE), "int8")} AND close IS NOT NULL
    ORDER BY start DESC LIMIT 1`;
  return { text, params };
}

/**
 * The series' trades from the start of the minute holding `beforeTimestamp` up to it (exclusive),
 * newest first, with their marks: what the minute candles do not split. `window` is that span's
 * block range. undefined: none.
 */
export function buildMinuteTradesSql(
  dialect: SqlDialect,
  network: NetworkName,
  query: LastPriceQuery,
  window: TradeWindow,
): SqlText | undefined {
  const { params, p } = placeholders(dialect);
  const range = blockRange(window, query.maxBlock, p);
  if (range === undefined) return undefined;
  const { filter } = subjectTerms(dialect, query.subject, query.withNative, p);
  const text = `SELECT ${TRADE_COLUMNS}, marks FROM trades WHERE network = ${p(network, "text")} AND ${range()}
      AND ${filter()} AND +timestamp >= ${p(bucketStart(query.beforeTimestamp, MINUTE), "int8")}
      AND +timestamp < ${p(query.beforeTimestamp, "int8")}
    ORDER BY block_number DESC, tx_index DESC, log_index DESC`;
  return { text, params };
}

/** The start of the span buildMinuteTradesSql reads (for its window probe). */
export function minuteStart(query: LastPriceQuery): number {
  return bucketStart(query.beforeTimestamp, MINUTE);
}

/**
 * The series' price just before `beforeTimestamp`: the last priced sample (candle rules) of the
 * newest trade that has one among `newestFirst`, else the minute candle's close.
 */
export function pickLastPrice(
  subject: CandleSubject,
  newestFirst: readonly Trade[],
  candleClose: bigint | undefined,
): bigint | undefined {
  const { kind, address } = seriesOf(subject);
  for (const trade of newestFirst) {
    const samples = tradeCandleSamples(trade).filter(
      (sample) => sample.kind === kind && sample.subject === address && sample.price !== undefined,
    );
    const last = samples.at(-1);
    if (last !== undefined) return last.price;
  }
  return candleClose;
}
