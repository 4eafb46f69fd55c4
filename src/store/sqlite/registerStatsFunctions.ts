import type Database from "better-sqlite3";

/**
 * The direction of a trade's first crossing of `pool`, from its pools list and encoded marks
 * (rowCodec.encodeMarks: the fourth `|` field holds the hops, `;`-separated, each starting with
 * 1 when token0 went in): "1", "0", or NULL without marks. PostgreSQL says the same with
 * split_part (buildTradeStatsSql).
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
}
