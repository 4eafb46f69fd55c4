import type Database from "better-sqlite3";
import type { NetworkName } from "../../domain/types.js";
import { traderCountChange } from "../buildDayDeltas.js";
import type { WriteHandlers } from "../plan/writeSteps.js";
import { type DayAggregateRow, decodeDayAggregate } from "../rowCodec.js";
import type { Store } from "../types.js";

const DAY_COLUMNS = "day, volume_usd, trade_count, untracked_count, trader_count";

function prepareDayStatements(db: Database.Database) {
  return {
    // Rows never hold 0 trades, so the count before is the count after minus the change.
    addDayTrader: db.prepare<[string, number, string, number], { trades: bigint }>(
      `INSERT INTO day_traders (network, day, sender, trades) VALUES (?, ?, ?, ?)
       ON CONFLICT (network, day, sender) DO UPDATE SET trades = trades + excluded.trades
       RETURNING trades`,
    ),
    deleteDayTrader: db.prepare<[string, number, string]>(
      "DELETE FROM day_traders WHERE network = ? AND day = ? AND sender = ?",
    ),
    getDayAggregate: db.prepare<[string, number], DayAggregateRow>(
      `SELECT ${DAY_COLUMNS} FROM day_aggregates WHERE network = ? AND day = ?`,
    ),
    upsertDayAggregate: db.prepare<[string, number, string, number, number, number]>(
      `INSERT INTO day_aggregates (network, day, volume_usd, trade_count, untracked_count, trader_count)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, day) DO UPDATE SET volume_usd = excluded.volume_usd,
         trade_count = excluded.trade_count, untracked_count = excluded.untracked_count,
         trader_count = excluded.trader_count`,
    ),
    deleteDayAggregate: db.prepare<[string, number]>(
      "DELETE FROM day_aggregates WHERE network = ? AND day = ?",
    ),
    deleteDayTradersBefore: db.prepare<[string, number]>(
      "DELETE FROM day_traders WHERE network = ? AND day < ?",
    ),
    deleteDayAggregatesBefore: db.prepare<[string, number]>(
      "DELETE FROM day_aggregates WHERE network = ? AND day < ?",
    ),
    listDayAggregates: db.prepare<[string, number, number], DayAggregateRow>(
      `SELECT ${DAY_COLUMNS} FROM day_aggregates WHERE network = ? AND day >= ? AND day <= ? ORDER BY day`,
    ),
  };
}

/**
 * The SQLite day_traders and day_aggregates tables. Volumes are decimal TEXT, so each touched day
 * is read, added up with bigint and written back (a batch touches a handful of days).
 */
export function createSqliteDayVolumes(db: Database.Database): {
  steps: Pick<WriteHandlers<NetworkName>, "addDayTraders" | "addDayTotals" | "deleteDaysBefore">;
  methods: Pick<Store, "listDayAggregates">;
} {
  // Prepared on first use, after migrate() created the tables.
  let statements: ReturnType<typeof prepareDayStatements> | undefined;
  const s = () => (statements ??= prepareDayStatements(db));
  return {
    steps: {
      addDayTraders(network, { traders }) {
        const changes = new Map<number, number>();
        for (const t of traders) {
          const after = Number(s().addDayTrader.get(network, t.day, t.sender, t.trades)!.trades);
          if (after <= 0) s().deleteDayTrader.run(network, t.day, t.sender);
          changes.set(t.day, (changes.get(t.day) ?? 0) + traderCountChange(after - t.trades, after));
        }
        return changes;
      },
      addDayTotals(network, { days }) {
        for (const delta of days) {
          const row = s().getDayAggregate.get(network, delta.day);
          const current = row === undefined ? undefined : decodeDayAggregate(row);
          const tradeCount = (current?.tradeCount ?? 0) + delta.tradeCount;
          if (tradeCount <= 0) {
            s().deleteDayAggregate.run(network, delta.day);
            continue;
          }
          s().upsertDayAggregate.run(
            network,
            delta.day,
            ((current?.volumeUsd ?? 0n) + delta.volumeUsd).toString(),
            tradeCount,
            (current?.untrackedCount ?? 0) + delta.untrackedCount,
            (current?.traderCount ?? 0) + delta.traderCount,
          );
        }
      },
      deleteDaysBefore(network, { day }) {
        s().deleteDayTradersBefore.run(network, day);
        s().deleteDayAggregatesBefore.run(network, day);
      },
    },
    methods: {
      async listDayAggregates(network, fromDay, toDay) {
        return s().listDayAggregates.all(network, fromDay, toDay).map(decodeDayAggregate);
      },
    },
  };
}
