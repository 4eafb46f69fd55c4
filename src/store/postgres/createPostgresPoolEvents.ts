import type postgres from "postgres";
import type { AsyncWriteHandlers } from "../plan/writeSteps.js";
import {
  assertPoolEventQuery,
  buildPoolEventPageSql,
  decodePoolEvent,
  POOL_EVENT_COLUMNS,
  type PoolEventRow,
} from "../poolEventCodec.js";
import type { Store } from "../types.js";
import { nullableArray, plainArray, textArray } from "./arrayLiterals.js";
import type { PostgresWrite } from "./postgresWrite.js";

/** The PostgreSQL pool_events table: swaps, joins and exits with the reserves after each, read by block range. */
export function createPostgresPoolEvents(sql: postgres.Sql): {
  steps: Pick<
    AsyncWriteHandlers<PostgresWrite>,
    "replacePoolEvents" | "deletePoolEventsAbove" | "deletePoolEventsBefore"
  >;
  methods: Pick<Store, "listPoolEvents">;
} {
  return {
    steps: {
      async replacePoolEvents({ tx, network }, { blocks, events }) {
        await tx`DELETE FROM pool_events WHERE network = ${network}
          AND block_number = ANY(${plainArray(blocks)}::int8[])`;
        if (events.length === 0) return;
        await tx`INSERT INTO pool_events (${tx.unsafe(POOL_EVENT_COLUMNS)})
          SELECT ${network}::text, * FROM unnest(
            ${plainArray(events.map((e) => e.blockNumber))}::int8[],
            ${plainArray(events.map((e) => e.logIndex))}::int4[],
            ${textArray(events.map((e) => e.txHash))}::text[],
            ${plainArray(events.map((e) => e.timestamp))}::int8[],
            ${plainArray(events.map((e) => e.txIndex))}::int4[],
            ${textArray(events.map((e) => e.pool))}::text[],
            ${textArray(events.map((e) => e.type))}::text[],
            ${textArray(events.map((e) => e.maker))}::text[],
            ${plainArray(events.map((e) => e.amount0))}::numeric[],
            ${plainArray(events.map((e) => e.amount1))}::numeric[],
            ${nullableArray(events.map((e) => e.reserves?.reserve0))}::numeric[],
            ${nullableArray(events.map((e) => e.reserves?.reserve1))}::numeric[])`;
      },
      async deletePoolEventsAbove({ tx, network }, { blockNumber }) {
        await tx`DELETE FROM pool_events WHERE network = ${network}
          AND block_number > ${blockNumber.toString()}::int8`;
      },
      async deletePoolEventsBefore({ tx, network }, { timestamp }) {
        await tx`DELETE FROM pool_events WHERE network = ${network} AND timestamp < ${timestamp}::int8`;
      },
    },
    methods: {
      async listPoolEvents(network, query) {
        assertPoolEventQuery(query);
        const { text, params } = buildPoolEventPageSql("postgres", network, query);
        const values = params.map((value) => (typeof value === "bigint" ? value.toString() : value));
        const rows = await sql.unsafe<PoolEventRow[]>(text, values, { prepare: true });
        return rows.map(decodePoolEvent);
      },
    },
  };
}
