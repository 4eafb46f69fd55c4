import type { PoolSwapSumQuery, PoolSwapTotals } from "../domain/market.js";
import type { Address, NetworkName } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import { placeholders, type SqlDialect, type SqlText } from "./buildTradePageSql.js";

// Every pool's swaps over a time range in one grouped statement over the pool_events table (one
// row per Swap log of an accepted pool, amounts signed: positive when the pool took them in),
// walking the (network, timestamp) index over the range once, whatever the number of pools. A
// swap's price is its token1 amount over its token0 amount, 10^36-scaled and truncated (as the
// pool candles sample it); a swap with nothing on one side is counted but not priced. SQLite
// sums and compares the decimal TEXT amounts with the exact functions of
// registerStatsFunctions; PostgreSQL does it in numeric (div() truncates like bigint division).

/** One row of the grouped statement. */
export interface PoolSwapSumRow {
  pool: string;
  swaps: number | string;
  volume0: string | null;
  volume1: string | null;
  high: string | null;
  low: string | null;
}

/** Throws BadRequestError for a range that is not whole seconds and a block number. */
export function assertPoolSwapSumQuery(query: PoolSwapSumQuery): void {
  if (!Number.isInteger(query.afterTimestamp) || query.afterTimestamp < 0 || query.maxBlock < 0n) {
    throw new BadRequestError("Invalid pool swap range.", {
      details: `got after ${query.afterTimestamp}, up to block ${query.maxBlock}`,
    });
  }
}

/** The grouped statement: per pool, its swaps, absolute amounts summed, highest and lowest price. */
export function buildPoolSwapSumSql(
  dialect: SqlDialect,
  network: NetworkName,
  query: PoolSwapSumQuery,
): SqlText {
  const { params, p } = placeholders(dialect);
  // `+block_number`: the window is found over the timestamp index; SQLite would otherwise walk the
  // primary key's block range, every stored day of the network.
  const where = `network = ${p(network, "text")} AND timestamp > ${p(query.afterTimestamp, "int8")}
    AND +block_number <= ${p(query.maxBlock, "int8")} AND type = 'swap'`;
  if (dialect === "sqlite") {
    return {
      text: `SELECT pool, count(*) AS swaps, big_abs_sum(amount0) AS volume0, big_abs_sum(amount1) AS volume1,
          pool_price_max(amount0, amount1) AS high, pool_price_min(amount0, amount1) AS low
        FROM pool_events WHERE ${where} GROUP BY pool`,
      params,
    };
  }
  const price = "div(abs(amount1) * 1000000000000000000000000000000000000::numeric, abs(amount0))";
  const priced = "FILTER (WHERE amount0 <> 0 AND amount1 <> 0)";
  return {
    text: `SELECT pool, count(*) AS swaps, sum(abs(amount0))::text AS volume0, sum(abs(amount1))::text AS volume1,
        (max(${price}) ${priced})::text AS high, (min(${price}) ${priced})::text AS low
      FROM pool_events WHERE ${where} GROUP BY pool`,
    params,
  };
}

/** The statement's rows as totals by pool. */
export function decodePoolSwapSums(rows: Iterable<PoolSwapSumRow>): Map<Address, PoolSwapTotals> {
  const out = new Map<Address, PoolSwapTotals>();
  const big = (value: string | null) => (value === null ? undefined : BigInt(value));
  for (const row of rows) {
    out.set(row.pool as Address, {
      swapCount: Number(row.swaps),
      volume0: big(row.volume0) ?? 0n,
      volume1: big(row.volume1) ?? 0n,
      high: big(row.high),
      low: big(row.low),
    });
  }
  return out;
}
