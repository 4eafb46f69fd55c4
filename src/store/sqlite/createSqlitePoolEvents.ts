import type Database from "better-sqlite3";
import type { NetworkName } from "../../domain/types.js";
import type { WriteHandlers } from "../plan/writeSteps.js";
import {
  assertPoolEventQuery,
  buildPoolEventPageSql,
  decodePoolEvent,
  POOL_EVENT_COLUMNS,
  type PoolEventRow,
} from "../poolEventCodec.js";
import type { Store } from "../types.js";
import { createStatementCache } from "./createStatementCache.js";
import { optionalText } from "./optionalText.js";

function preparePoolEventStatements(db: Database.Database) {
  return {
    deleteBlock: db.prepare<[string, bigint]>(
      "DELETE FROM pool_events WHERE network = ? AND block_number = ?",
    ),
    insert: db.prepare<unknown[]>(
      `INSERT INTO pool_events (${POOL_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteAbove: db.prepare<[string, bigint]>(
      "DELETE FROM pool_events WHERE network = ? AND block_number > ?",
    ),
    deleteBefore: db.prepare<[string, number]>("DELETE FROM pool_events WHERE network = ? AND timestamp < ?"),
  };
}

/** The SQLite pool_events table: swaps, joins and exits with the reserves after each, read by block range. */
export function createSqlitePoolEvents(db: Database.Database): {
  steps: Pick<
    WriteHandlers<NetworkName>,
    "replacePoolEvents" | "deletePoolEventsAbove" | "deletePoolEventsBefore"
  >;
  methods: Pick<Store, "listPoolEvents">;
} {
  // Prepared on first use, after migrate() created the table.
  let statements: ReturnType<typeof preparePoolEventStatements> | undefined;
  const s = () => (statements ??= preparePoolEventStatements(db));
  const prepared = createStatementCache(db);
  const page = (text: string) => prepared<PoolEventRow>(text);
  return {
    steps: {
      replacePoolEvents(network, { blocks, events }) {
        const { deleteBlock, insert } = s();
        for (const block of blocks) deleteBlock.run(network, block);
        for (const e of events) {
          insert.run(
            network,
            e.blockNumber,
            e.logIndex,
            e.txHash,
            e.timestamp,
            e.txIndex,
            e.pool,
            e.type,
            e.maker,
            e.amount0.toString(),
            e.amount1.toString(),
            optionalText(e.reserves?.reserve0),
            optionalText(e.reserves?.reserve1),
          );
        }
      },
      deletePoolEventsAbove(network, { blockNumber }) {
        s().deleteAbove.run(network, blockNumber);
      },
      deletePoolEventsBefore(network, { timestamp }) {
        s().deleteBefore.run(network, timestamp);
      },
    },
    methods: {
      async listPoolEvents(network, query) {
        assertPoolEventQuery(query);
        const { text, params } = buildPoolEventPageSql("sqlite", network, query);
        return page(text)
          .all(...params)
          .map(decodePoolEvent);
      },
    },
  };
}
