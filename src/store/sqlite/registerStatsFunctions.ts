import type Database from "better-sqlite3";
import { POOL_PRICE_SCALE } from "../../domain/market.js";

/**
 * The direction of a trade's first crossing of `pool`, from its pools list and encoded marks
 * (rowCodec.encodeMarks: the fourth `|` field holds the hops, `;`-separated, each starting with
 * 1 when token0 went in): "1", "0", or NULL without marks. PostgreSQL says the same with
 * split_part (buildTradeStatsSql).
 * @internal exported for tests, which call this step alone.
 */
export function hopZeroForOne(pools: unknown, marks: unknown, pool: unknown): string | null {
  if (typeof pools !== "string" || typeof marks !== "string" || typeof pool !== "string") return null;
  const index = pools.split(",").indexOf(pool);
  if (index < 0) return null;
  const hop = (marks.split("|")[3] ?? "").split(";")[index];
  return hop === undefined || hop === "" ? null : hop.slice(0, 1);
}

/** The functions market stats need in SQL: exact sums of decimal TEXT, and a hop's direction. */
export function registerStatsFunctions(db: Database.Database): void {
  db.function("hop_zero_for_one", { deterministic: true }, hopZeroForOne);
  // SQLite's own sum() would round past 2^63; NULL only when no row was summed.
  db.aggregate("big_sum", {
    start: () => undefined as bigint | undefined,
    step: (total: bigint | undefined, value: unknown) =>
      value === null || value === undefined ? total : (total ?? 0n) + BigInt(value as string),
    result: (total: bigint | undefined) => (total === undefined ? null : total.toString()),
  });
  // A pool's swaps (buildPoolSwapSumSql): absolute signed amounts summed, and the extreme prices.
  db.aggregate("big_abs_sum", {
    start: () => undefined as bigint | undefined,
    step: (total: bigint | undefined, value: unknown) => {
      if (value === null || value === undefined) return total;
      const amount = BigInt(value as string);
      return (total ?? 0n) + (amount < 0n ? -amount : amount);
    },
    result: (total: bigint | undefined) => (total === undefined ? null : total.toString()),
  });
  const extremePrice = (keep: (price: bigint, kept: bigint) => boolean) => ({
    varargs: true,
    start: () => undefined as bigint | undefined,
    // Two arguments (amount0, amount1); better-sqlite3's types know one.
    step: (kept: bigint | undefined, ...amounts: unknown[]) => {
      const price = swapPrice(amounts[0], amounts[1]);
      return price === undefined || (kept !== undefined && !keep(price, kept)) ? kept : price;
    },
    result: (kept: bigint | undefined) => (kept === undefined ? null : kept.toString()),
  });
  db.aggregate(
    "pool_price_max",
    extremePrice((price, kept) => price > kept),
  );
  db.aggregate(
    "pool_price_min",
    extremePrice((price, kept) => price < kept),
  );
}

/** A swap's token1 per token0, 10^36-scaled and truncated, from its signed TEXT amounts; undefined with an empty side. */
function swapPrice(amount0: unknown, amount1: unknown): bigint | undefined {
  if (typeof amount0 !== "string" || typeof amount1 !== "string") return undefined;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  const [a0, a1] = [abs(BigInt(amount0)), abs(BigInt(amount1))];
  return a0 === 0n || a1 === 0n ? undefined : (a1 * POOL_PRICE_SCALE) / a0;
}
