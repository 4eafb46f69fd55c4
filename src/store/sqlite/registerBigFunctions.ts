import type Database from "better-sqlite3";
import { addKnown } from "../../domain/market.js";
import { optionalText } from "./optionalText.js";

/**
 * Exact arithmetic on the decimal TEXT columns, for SQL: an upsert merges a candle into its stored
 * row in one statement (SQLite's own numbers would round past 2^63).
 */
export function registerBigFunctions(db: Database.Database): void {
  const big = (value: unknown): bigint | undefined =>
    value === null || value === undefined ? undefined : BigInt(value as string);
  const pick = (a: unknown, b: unknown, keepA: (x: bigint, y: bigint) => boolean): string | null => {
    const [x, y] = [big(a), big(b)];
    const kept = x === undefined ? y : y === undefined || keepA(x, y) ? x : y;
    return kept === undefined ? null : kept.toString();
  };
  db.function("big_max", { deterministic: true }, (a, b) => pick(a, b, (x, y) => x >= y));
  db.function("big_min", { deterministic: true }, (a, b) => pick(a, b, (x, y) => x <= y));
  db.function("big_add", { deterministic: true }, (a, b) => ((big(a) ?? 0n) + (big(b) ?? 0n)).toString());
  // NULL is "unknown" (Candle.volumeUsd): a sum with an unknown part is unknown.
  db.function("big_add_known", { deterministic: true }, (a, b) => optionalText(addKnown(big(a), big(b))));
}
