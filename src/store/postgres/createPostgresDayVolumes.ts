import type postgres from "postgres";
import type { AsyncWriteHandlers } from "../plan/writeSteps.js";
import { type DayAggregateRow, decodeDayAggregate } from "../rowCodec.js";
import type { Store } from "../types.js";
import { plainArray, textArray } from "./arrayLiterals.js";
import type { PostgresWrite } from "./postgresWrite.js";

/**
 * The PostgreSQL day_traders and day_aggregates tables, each step a few bulk statements whatever
 * the batch size: the sender upsert reports how many senders each day gained or lost, the day rows
 * take their deltas (NUMERIC adds exactly), and rows that reached zero go.
 */
export function createPostgresDayVolumes(sql: postgres.Sql): {
  steps: Pick<AsyncWriteHandlers<PostgresWrite>, "addDayTraders" | "addDayTotals" | "deleteDaysBefore">;
  methods: Pick<Store, "listDayAggregates">;
} {
  return {
    steps: {
      async addDayTraders({ tx, network }, { traders }) {
        // Rows never hold 0 trades, so the count before is the count after minus the change.
        const changes = await tx<{ day: string; change: number }[]>`
          WITH d AS (
            SELECT * FROM unnest(
              ${plainArray(traders.map((t) => t.day))}::int8[],
              ${textArray(traders.map((t) => t.sender))}::text[],
              ${plainArray(traders.map((t) => t.trades))}::int4[]) AS d(day, sender, delta)),
          u AS (
            INSERT INTO day_traders (network, day, sender, trades)
            SELECT ${network}::text, day, sender, delta FROM d
            ON CONFLICT (network, day, sender) DO UPDATE SET trades = day_traders.trades + excluded.trades
            RETURNING day, sender, trades)
          SELECT u.day, sum((u.trades > 0)::int4 - (u.trades - d.delta > 0)::int4)::int4 AS change
          FROM u JOIN d ON d.day = u.day AND d.sender = u.sender GROUP BY u.day`;
        const shrunk = traders.filter((t) => t.trades < 0);
        if (shrunk.length > 0) {
          await tx`DELETE FROM day_traders WHERE network = ${network} AND trades <= 0
            AND (day, sender) IN (SELECT * FROM unnest(
              ${plainArray(shrunk.map((t) => t.day))}::int8[],
              ${textArray(shrunk.map((t) => t.sender))}::text[]))`;
        }
        return changes.map((row) => [Number(row.day), row.change] as const);
      },
      async addDayTotals({ tx, network }, { days }) {
        await tx`INSERT INTO day_aggregates (network, day, volume_usd, trade_count, untracked_count, trader_count)
          SELECT ${network}::text, * FROM unnest(
            ${plainArray(days.map((d) => d.day))}::int8[],
            ${plainArray(days.map((d) => d.volumeUsd))}::numeric[],
            ${plainArray(days.map((d) => d.tradeCount))}::int8[],
            ${plainArray(days.map((d) => d.untrackedCount))}::int8[],
            ${plainArray(days.map((d) => d.traderCount))}::int8[])
          ON CONFLICT (network, day) DO UPDATE SET
            volume_usd = day_aggregates.volume_usd + excluded.volume_usd,
            trade_count = day_aggregates.trade_count + excluded.trade_count,
            untracked_count = day_aggregates.untracked_count + excluded.untracked_count,
            trader_count = day_aggregates.trader_count + excluded.trader_count`;
        const shrunk = days.filter((d) => d.tradeCount < 0);
        if (shrunk.length > 0) {
          await tx`DELETE FROM day_aggregates WHERE network = ${network} AND trade_count <= 0
            AND day = ANY(${plainArray(shrunk.map((d) => d.day))}::int8[])`;
        }
      },
      async deleteDaysBefore({ tx, network }, { day }) {
        await tx`DELETE FROM day_traders WHERE network = ${network} AND day < ${day}::int8`;
        await tx`DELETE FROM day_aggregates WHERE network = ${network} AND day < ${day}::int8`;
      },
    },
    methods: {
      async listDayAggregates(network, fromDay, toDay) {
        const rows = await sql<DayAggregateRow[]>`
          SELECT day, volume_usd, trade_count, untracked_count, trader_count FROM day_aggregates
          WHERE network = ${network} AND day >= ${fromDay}::int8 AND day <= ${toDay}::int8 ORDER BY day`;
        return rows.map(decodeDayAggregate);
      },
    },
  };
}
