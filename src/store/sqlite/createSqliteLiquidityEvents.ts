import type Database from "better-sqlite3";
import type { NetworkName } from "../../domain/types.js";
import { assertLiquidityEventQuery, buildLiquidityEventPageSql } from "../buildLiquidityEventPageSql.js";
import type { WriteHandlers } from "../plan/writeSteps.js";
import type { Store } from "../types.js";
import { decodeLiquidityEvent, LIQUIDITY_EVENT_COLUMNS, type LiquidityEventRow } from "../v3RowCodec.js";
import { createStatementCache } from "./createStatementCache.js";
import { optionalText } from "./optionalText.js";

function prepareEventStatements(db: Database.Database) {
  return {
    deleteBlock: db.prepare<[string, bigint]>(
      "DELETE FROM liquidity_events WHERE network = ? AND block_number = ?",
    ),
    insert: db.prepare<unknown[]>(
      `INSERT INTO liquidity_events (${LIQUIDITY_EVENT_COLUMNS})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteAbove: db.prepare<[string, bigint]>(
      "DELETE FROM liquidity_events WHERE network = ? AND block_number > ?",
    ),
    deleteBefore: db.prepare<[string, number]>(
      "DELETE FROM liquidity_events WHERE network = ? AND timestamp < ?",
    ),
  };
}

/** The SQLite liquidity_events table: mints and burns, written with their range, read by pages. */
export function createSqliteLiquidityEvents(db: Database.Database): {
  steps: Pick<
    WriteHandlers<NetworkName>,
    "replaceLiquidityEvents" | "deleteLiquidityEventsAbove" | "deleteLiquidityEventsBefore"
  >;
  methods: Pick<Store, "listLiquidityEvents">;
} {
  // Prepared on first use, after migrate() created the table.
  let statements: ReturnType<typeof prepareEventStatements> | undefined;
  const s = () => (statements ??= prepareEventStatements(db));
  // Page statements vary with the filters given: a handful of shapes, each prepared once.
  const prepared = createStatementCache(db);
  const page = (text: string) => prepared<LiquidityEventRow>(text);
  return {
    steps: {
      replaceLiquidityEvents(network, { blocks, events }) {
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
            e.sender,
            e.owner,
            e.amount0.toString(),
            e.amount1.toString(),
            optionalText(e.liquidity),
            e.tickLower ?? null,
            e.tickUpper ?? null,
            e.amountUsd.toString(),
          );
        }
      },
      deleteLiquidityEventsAbove(network, { blockNumber }) {
        s().deleteAbove.run(network, blockNumber);
      },
      deleteLiquidityEventsBefore(network, { timestamp }) {
        s().deleteBefore.run(network, timestamp);
      },
    },
    methods: {
      async listLiquidityEvents(network, query) {
        assertLiquidityEventQuery(query);
        const { text, params } = buildLiquidityEventPageSql("sqlite", network, query);
        return page(text)
          .all(...params)
          .map(decodeLiquidityEvent);
      },
    },
  };
}
