import type { DailyVolume } from "../domain/market.js";
import { utcDate } from "../lib/utcDate.js";
import type { DayAggregate } from "../store/types.js";

const DAY = 86_400;

/** `days` UTC days ending with the day of `now` (unix seconds), newest first, from the store's day rows; empty days are zero. */
export function buildDailyVolumes(rows: readonly DayAggregate[], days: number, now: number): DailyVolume[] {
  const today = Math.floor(now / DAY);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const out: DailyVolume[] = [];
  for (let i = 0; i < days; i++) {
    const day = byDay.get(today - i);
    out.push({
      date: utcDate((today - i) * DAY),
      volumeUsd: day?.volumeUsd ?? 0n,
      traderCount: day?.traderCount ?? 0,
      tradeCount: day?.tradeCount ?? 0,
      untrackedCount: day?.untrackedCount ?? 0,
    });
  }
  return out;
}
