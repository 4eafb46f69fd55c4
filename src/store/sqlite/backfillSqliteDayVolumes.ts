import type Database from "better-sqlite3";
import { keepNativeAlive } from "./keepNativeAlive.js";

/**
 * Migration 2's volume backfill for SQLite: sums every day's trade volumes with bigint (SQLite's
 * sum() over decimal TEXT would round through a double) and writes them into day_aggregates.
 */
export function backfillSqliteDayVolumes(db: Database.Database): void {
  const sums = new Map<string, { network: string; day: bigint; volume: bigint }>();
  const rows = db
    .prepare<[], [string, bigint, string]>(
      "SELECT network, timestamp / 86400, volume_usd FROM trades WHERE volume_usd <> '0'",
    )
    .safeIntegers(true)
    .raw(true);
  // The iterator holds the connection: collect first, write after it is done. It is kept alive
  // like every native object of the driver (openSqliteDatabase): one per migration run.
  for (const [network, day, volume] of keepNativeAlive(rows.iterate())) {
    const key = `${network}:${day}`;
    const sum = sums.get(key);
    if (sum === undefined) sums.set(key, { network, day, volume: BigInt(volume) });
    else sum.volume += BigInt(volume);
  }
  const update = db.prepare<[string, string, bigint]>(
    "UPDATE day_aggregates SET volume_usd = ? WHERE network = ? AND day = ?",
  );
  for (const { network, day, volume } of sums.values()) update.run(volume.toString(), network, day);
}
