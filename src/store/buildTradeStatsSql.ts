import type { CandleSubject } from "../domain/market.js";
import type { LastPriceQuery, TradeStatsQuery, TradeWindowTotals } from "../domain/tradeStats.js";
import type { NetworkName, Trade } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import { bucketStart, tradeCandleSamples } from "./buildCandles.js";
import {
  placeholders,
  qualified,
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
// - a pool's trades are those whose pools list holds it: its trade_pools rows over the block range,
//   each trade looked up by seq; the direction at the pool is its first crossing's hop in the
//   trade's marks (1 = token0 in: a sell of token0; 0 = token1 in: a buy of token0). Trades
//   without marks (indexed before candles) are in the volume but neither buys nor sells.

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

/** A block range condition on the columns of the table named by `key` ("" trades, "tp." trade_pools). */
type RangeTerm = (key: string) => string;

/**
 * Where a subject's trades come from: `from` is a FROM clause and the WHERE terms that pick the
 * trades of the block range (trades' columns stay unambiguous in it: sender, volume_usd,
 * timestamp, pools, marks); `key` names the table whose (block_number, tx_index, log_index)
 * order the walk follows.
 */
interface TradeSource {
  from: (range: RangeTerm) => string;
  key: string;
}

/** The sources that pick a subject's trades, and its buy and sell conditions. */
function subjectTerms(
  dialect: SqlDialect,
  network: NetworkName,
  subject: CandleSubject,
  withNative: boolean,
  p: ReturnType<typeof placeholders>["p"],
): { branches: TradeSource[]; all: TradeSource; buy: () => string; sell: () => string } {
  const trades = (filter: () => string): TradeSource => ({
    from: (range) => `FROM trades WHERE network = ${p(network, "text")} AND ${filter()} AND ${range("")}`,
    key: "",
  });
  if (subject.kind === "token") {
    const list = () =>
      withNative ? `(${p(subject.token, "text")}, ${p("", "text")})` : `(${p(subject.token, "text")})`;
    return {
      // Each branch walks one token index over the block range (an OR would walk the block index
      // over every trade of the range); a cycle comes from the first only.
      branches: [
        trades(() => `token_in IN ${list()}`),
        trades(() => `token_out IN ${list()} AND token_in NOT IN ${list()}`),
      ],
      all: trades(() => `(token_in IN ${list()} OR token_out IN ${list()})`),
      buy: () => `token_out IN ${list()}`,
      sell: () => `token_in IN ${list()}`,
    };
  }
  const pool = () => p(subject.pool, "text");
  const hop = () =>
    dialect === "sqlite"
      ? `hop_zero_for_one(pools, marks, ${pool()})`
      : `left(split_part(split_part(marks, '|', 4), ';', array_position(string_to_array(pools, ','), ${pool()})), 1)`;
  // The pool's trade_pools rows over the block range, each trade looked up by seq.
  const rows: TradeSource = {
    from: (range) => `FROM trade_pools AS tp CROSS JOIN trades
      WHERE tp.network = ${p(network, "text")} AND tp.pool = ${pool()} AND ${range("tp.")}
        AND trades.seq = tp.seq AND trades.network = tp.network`,
    key: "tp.",
  };
  return { branches: [rows], all: rows, buy: () => `${hop()} = '0'`, sell: () => `${hop()} = '1'` };
}

/** The block range condition of a window (undefined: no trade can match). */
export function blockRange(
  window: TradeWindow,
  maxBlock: bigint,
  p: ReturnType<typeof placeholders>["p"],
): RangeTerm | undefined {
  if (window.firstBlock === undefined || window.empty) return undefined;
  const end = window.lastBlock === undefined || window.lastBlock > maxBlock ? maxBlock : window.lastBlock;
  if (end < window.firstBlock) return undefined;
  const first = window.firstBlock;
  return (key) => `${key}block_number >= ${p(first, "int8")} AND ${key}block_number <= ${p(end, "int8")}`;
}

/**
 * One statement counting every window of a stats query. The windows are nested (they all end at
 * toTimestamp), so each trade is tagged with the shortest window holding it (w: the index of its
 * start) and summed once: per tag the columns buys_w, sells_w and volume_w (decodeTradeStats adds
 * the shorter windows' into the longer), and per window i the distinct signers buyers_i and
 * sellers_i. One pass over the rows.
 * `window` is the block range of the longest window (from the window probe). undefined: every
 * window is empty without asking.
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
  const terms = subjectTerms(dialect, network, query.subject, query.withNative, p);
  // Longest window first in the CASE would tag everything 3: test the shortest first.
  const order = query.fromTimestamps.map((from, i) => ({ from, i })).sort((a, b) => b.from - a.from);
  const from = Math.min(...query.fromTimestamps);
  // Placeholders are made in text order (SQLite binds `?` by position).
  const picked = (): string =>
    terms.branches
      .map(
        (branch) => `SELECT sender, volume_usd,
          CASE ${order.map(({ from, i }) => `WHEN timestamp >= ${p(from, "int8")} THEN ${i}`).join(" ")} END AS w,
          CASE WHEN ${terms.buy()} THEN 1 ELSE 0 END AS is_buy,
          CASE WHEN ${terms.sell()} THEN 1 ELSE 0 END AS is_sell
        ${branch.from(range)}
          AND +timestamp >= ${p(from, "int8")} AND +timestamp < ${p(query.toTimestamp, "int8")}`,
      )
      .join(" UNION ALL ");
  const sum = dialect === "sqlite" ? "big_sum(volume_usd)" : "sum(volume_usd)";
  const tags = query.fromTimestamps.map((_, i) => i);
  const totals = tags.map(
    (w) => `sum(CASE WHEN w = ${w} AND is_buy = 1 THEN 1 ELSE 0 END) AS buys_${w},
      sum(CASE WHEN w = ${w} AND is_sell = 1 THEN 1 ELSE 0 END) AS sells_${w},
      ${sum} FILTER (WHERE w = ${w}) AS volume_${w}`,
  );
  // A window holds the tags of the windows no longer than it.
  const within = (i: number) => {
    const own = query.fromTimestamps[i]!;
    return `w IN (${tags.filter((w) => query.fromTimestamps[w]! >= own).join(", ")})`;
  };
  const uniques = tags.map(
    (i) => `count(DISTINCT sender) FILTER (WHERE is_buy = 1 AND ${within(i)}) AS buyers_${i},
      count(DISTINCT sender) FILTER (WHERE is_sell = 1 AND ${within(i)}) AS sellers_${i}`,
  );
  return { text: `SELECT ${totals.join(", ")}, ${uniques.join(", ")} FROM (${picked()}) AS rows_`, params };
}

/**
 * Reads the stats statement's row (counts arrive as string, bigint or number; a sum of no rows as
 * null): buyers and sellers per window as read, buys, sells and volume summed over the windows no
 * longer than each.
 */
export function decodeTradeStats(
  row: Record<string, unknown> | undefined,
  fromTimestamps: readonly number[],
): TradeWindowTotals[] {
  const value = (name: string) => row?.[name] as string | number | bigint | null | undefined;
  const count = (name: string) => Number(value(name) ?? 0);
  return fromTimestamps.map((own, i) => {
    const inner = fromTimestamps.flatMap((from, w) => (from >= own ? [w] : []));
    return {
      buys: inner.reduce((n, w) => n + count(`buys_${w}`), 0),
      sells: inner.reduce((n, w) => n + count(`sells_${w}`), 0),
      buyers: count(`buyers_${i}`),
      sellers: count(`sellers_${i}`),
      volumeUsd: inner.reduce((sum, w) => sum + BigInt(value(`volume_${w}`) ?? 0), 0n),
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
  const { all } = subjectTerms(dialect, network, query.subject, query.withNative, p);
  const k = all.key;
  const text = `SELECT ${qualified(TRADE_COLUMNS)}, marks ${all.from(range)}
      AND +timestamp >= ${p(bucketStart(query.beforeTimestamp, MINUTE), "int8")}
      AND +timestamp < ${p(query.beforeTimestamp, "int8")}
    ORDER BY ${k}block_number DESC, ${k}tx_index DESC, ${k}log_index DESC`;
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
