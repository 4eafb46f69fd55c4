import type { PoolLastPricesQuery, PriceInstant } from "../domain/tradeStats.js";
import type { Address, NetworkName } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import { bucketStart, POOL_CANDLE, tradeCandleSamples } from "./buildCandles.js";
import {
  placeholders,
  qualified,
  type SqlDialect,
  type SqlText,
  TRADE_COLUMNS,
  type TradeWindow,
} from "./buildTradePageSql.js";
import { blockRange } from "./buildTradeStatsSql.js";
import { decodeTrade, type TradeRow } from "./rowCodec.js";

// Many pools' last prices at a few instants in a fixed number of statements, whatever the number
// of pools: what getLastPrice answers for each pool (withNative false) at each instant, which is
// the newest priced sample (candle rules) among the trades through the pool from the start of the
// instant's minute up to it, else the close of the pool's last priced minute candle before that
// minute (buildMinuteTradesSql, buildLastCandleCloseSql, pickLastPrice).
// - The minutes' trades: the instants' minutes merged into spans, every span's trades in one
//   statement, split per pool in code by their samples (a trade samples only pools of its list,
//   as trade_pools holds them). Up to POOL_LED_MAX pools, each pool's trade_pools rows over the
//   span's block range lead (after one probe statement of every span's block range), as a pool's
//   own read does; above, the network's trades of each span are read once over the timestamp
//   index (about a minute's trades of the chain, however many pools).
// - The candle closes: one statement, a correlated subquery per pool and minute that walks back
//   the pool's minute candles over the primary key from the minute (LIMIT 1), as a pool's own
//   read does; the pools arrive as one JSON array parameter.

const MINUTE = 60;

/** The most instants one read takes (each can add a minute of trades to read). */
const MAX_PRICE_INSTANTS = 8;

/**
 * The most pools whose own trade_pools rows lead the minutes' trades read; a longer list reads the
 * network's trades of the minutes once over the timestamp index.
 * @internal exported for tests, which read both ways.
 */
export const POOL_LED_MAX = 64;

/** A time span of trades the read needs: the minutes of one or more instants, merged. */
export interface MinuteSpan {
  fromTimestamp: number;
  /** Exclusive. */
  toTimestamp: number;
  /** The highest maxBlock of the span's instants. */
  maxBlock: bigint;
}

/** Throws BadRequestError for no instant or more than 8, or an instant that is not whole seconds and a block number. */
export function assertPoolLastPricesQuery(query: PoolLastPricesQuery): void {
  const { instants } = query;
  const bad = instants.find(
    (instant) =>
      !Number.isInteger(instant.beforeTimestamp) || instant.beforeTimestamp < 0 || instant.maxBlock < 0n,
  );
  if (instants.length === 0 || instants.length > MAX_PRICE_INSTANTS || bad !== undefined) {
    throw new BadRequestError("Invalid last price instants.", {
      details: `got ${instants.length} instants${bad === undefined ? "" : `, one before ${bad.beforeTimestamp} up to block ${bad.maxBlock}`}, expected 1 to ${MAX_PRICE_INSTANTS}`,
    });
  }
}

/** The start of the minute an instant's trades are read from. */
function minuteOf(instant: PriceInstant): number {
  return bucketStart(instant.beforeTimestamp, MINUTE);
}

/** The instants' minute spans (from the minute's start up to the instant), overlapping ones merged, ascending. */
export function minuteSpans(instants: readonly PriceInstant[]): MinuteSpan[] {
  const spans = instants
    .map((instant) => ({
      fromTimestamp: minuteOf(instant),
      toTimestamp: instant.beforeTimestamp,
      maxBlock: instant.maxBlock,
    }))
    // An instant at a minute's start has no trade of its minute before it: its candle says all.
    .filter((span) => span.toTimestamp > span.fromTimestamp)
    .sort((a, b) => a.fromTimestamp - b.fromTimestamp);
  const merged: MinuteSpan[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last !== undefined && span.fromTimestamp <= last.toTimestamp) {
      last.toTimestamp = Math.max(last.toTimestamp, span.toTimestamp);
      if (span.maxBlock > last.maxBlock) last.maxBlock = span.maxBlock;
    } else {
      merged.push({ ...span });
    }
  }
  return merged;
}

/** Whether the pools' own trade_pools rows lead the trades read (then it needs the spans' block ranges). */
export function isPoolLed(query: PoolLastPricesQuery): boolean {
  return query.pools.length <= POOL_LED_MAX;
}

/** The asked pools, one JSON array parameter, as the table `asked` (its column: value, text). */
function askedPools(
  dialect: SqlDialect,
  p: ReturnType<typeof placeholders>["p"],
  pools: readonly string[],
): string {
  const list = p(JSON.stringify(pools), "text");
  return dialect === "sqlite"
    ? `json_each(${list}) AS asked`
    : `json_array_elements_text(${list}::json) AS asked(value)`;
}

/**
 * The spans' trades with their marks, any order: through the asked pools (pool-led: `windows`, the
 * spans' block ranges from buildTradeWindowsSql, are given) or all of the network's. undefined:
 * none can match.
 */
export function buildPoolMinuteTradesSql(
  dialect: SqlDialect,
  network: NetworkName,
  query: PoolLastPricesQuery,
  spans: readonly MinuteSpan[],
  windows?: readonly TradeWindow[],
): SqlText | undefined {
  const { params, p } = placeholders(dialect);
  const times = (span: MinuteSpan) =>
    `+timestamp >= ${p(span.fromTimestamp, "int8")} AND +timestamp < ${p(span.toTimestamp, "int8")}`;
  // Each branch's text is made in order: SQLite binds `?` by position.
  const branches = spans.flatMap((span, i): string[] => {
    if (windows === undefined) {
      return [
        `SELECT ${TRADE_COLUMNS}, marks FROM trades WHERE network = ${p(network, "text")}
          AND timestamp >= ${p(span.fromTimestamp, "int8")} AND timestamp < ${p(span.toTimestamp, "int8")}
          AND +block_number <= ${p(span.maxBlock, "int8")}`,
      ];
    }
    const range = blockRange(windows[i]!, span.maxBlock, p);
    if (range === undefined) return [];
    // PostgreSQL takes an array (an index condition on the pool) where a semi join would make it
    // scan a young table's trade_pools.
    const pools = () =>
      dialect === "sqlite"
        ? `tp.pool IN (SELECT value FROM json_each(${p(JSON.stringify(query.pools), "text")}))`
        : `tp.pool = ANY (ARRAY(SELECT json_array_elements_text(${p(JSON.stringify(query.pools), "text")}::json)))`;
    return [
      `SELECT ${qualified(TRADE_COLUMNS)}, marks FROM trade_pools AS tp CROSS JOIN trades
        WHERE tp.network = ${p(network, "text")} AND ${pools()} AND ${range("tp.")} AND trades.seq = tp.seq AND trades.network = tp.network AND ${times(span)}`,
    ];
  });
  return branches.length === 0 ? undefined : { text: branches.join(" UNION ALL "), params };
}

/** One row of buildPoolCandleClosesSql. */
export interface PoolCloseRow {
  pool: string;
  start: number | string | bigint;
  close: string | null;
}

/**
 * Per asked pool and instant's minute, the close of the pool's newest priced minute candle that
 * starts before the minute (null: none): a walk back over the candles' primary key per pair.
 */
export function buildPoolCandleClosesSql(
  dialect: SqlDialect,
  network: NetworkName,
  query: PoolLastPricesQuery,
): SqlText {
  const { params, p } = placeholders(dialect);
  const minutes = [...new Set(query.instants.map(minuteOf))];
  const text = `SELECT asked.value AS pool, minute.start AS start,
      (SELECT close FROM candles WHERE network = ${p(network, "text")} AND kind = ${p(POOL_CANDLE, "int4")}
          AND subject = asked.value AND width = ${p(MINUTE, "int4")} AND candles.start < minute.start
          AND close IS NOT NULL
        ORDER BY candles.start DESC LIMIT 1) AS close
    FROM ${askedPools(dialect, p, query.pools)}
    CROSS JOIN (${minutes.map((start) => `SELECT ${p(start, "int8")} AS start`).join(" UNION ALL ")}) AS minute`;
  return { text, params };
}

/** A trade of the spans and the last priced sample of each asked pool it crossed. */
interface PricedTrade {
  blockNumber: bigint;
  txIndex: number;
  logIndex: number;
  timestamp: number;
  prices: Map<Address, bigint>;
}

/** Newest first, as (block_number, tx_index, log_index) descending. */
function newestFirst(a: PricedTrade, b: PricedTrade): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber > b.blockNumber ? -1 : 1;
  return b.txIndex - a.txIndex || b.logIndex - a.logIndex;
}

/**
 * Each asked pool's price before each instant (in the order asked), from the spans' trades and the
 * candle closes: per instant, the last priced sample of the pool in the newest trade of the
 * instant's minute (up to its maxBlock) that has one, else the close before the minute.
 */
export function pickPoolLastPrices(
  query: PoolLastPricesQuery,
  rows: readonly TradeRow[],
  closes: readonly PoolCloseRow[],
): Map<Address, (bigint | undefined)[]> {
  const asked = new Set(query.pools);
  const trades: PricedTrade[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    // A pool-led read has a row per asked pool the trade crossed; a network's read has trades of no asked pool.
    const seq = String(row.seq);
    if (seen.has(seq) || !row.pools.split(",").some((pool) => asked.has(pool as Address))) continue;
    seen.add(seq);
    const trade = decodeTrade(row);
    const prices = new Map<Address, bigint>();
    for (const sample of tradeCandleSamples(trade)) {
      const pool = sample.subject as Address;
      if (sample.kind === POOL_CANDLE && sample.price !== undefined && asked.has(pool)) {
        prices.set(pool, sample.price);
      }
    }
    if (prices.size === 0) continue;
    const { blockNumber, txIndex, logIndex, timestamp } = trade;
    trades.push({ blockNumber, txIndex, logIndex, timestamp, prices });
  }
  trades.sort(newestFirst);
  const closeOf = new Map<string, bigint>();
  for (const row of closes) {
    if (row.close !== null) closeOf.set(`${row.pool}:${Number(row.start)}`, BigInt(row.close));
  }
  const out = new Map<Address, (bigint | undefined)[]>();
  for (const pool of asked) out.set(pool, []);
  query.instants.forEach((instant, i) => {
    const from = minuteOf(instant);
    const priced = new Set<Address>();
    for (const trade of trades) {
      if (priced.size === asked.size) break;
      const inMinute = trade.timestamp >= from && trade.timestamp < instant.beforeTimestamp;
      if (!inMinute || trade.blockNumber > instant.maxBlock) continue;
      for (const [pool, price] of trade.prices) {
        if (priced.has(pool)) continue;
        priced.add(pool);
        out.get(pool)![i] = price;
      }
    }
    for (const pool of asked) if (!priced.has(pool)) out.get(pool)![i] = closeOf.get(`${pool}:${from}`);
  });
  return out;
}
