import type Database from "better-sqlite3";
import type { NetworkName } from "../../domain/types.js";
import type { WriteHandlers } from "../plan/writeSteps.js";
import type { Store } from "../types.js";
import { decodeV3Price, decodeV3Tick, type V3PriceRow, type V3TickRow } from "../v3RowCodec.js";

function prepareV3Statements(db: Database.Database) {
  return {
    upsertPrice: db.prepare<
      [string, string, bigint, number, string, number, string, string | null, string | null]
    >(
      `INSERT INTO v3_prices (network, pool, block_number, log_index, sqrt_price_x96, tick, liquidity,
         balance0, balance1)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, pool, block_number) DO UPDATE SET log_index = excluded.log_index,
         sqrt_price_x96 = excluded.sqrt_price_x96, tick = excluded.tick, liquidity = excluded.liquidity,
         balance0 = excluded.balance0, balance1 = excluded.balance1`,
    ),
    upsertTick: db.prepare<[string, string, number, bigint, string, string]>(
      `INSERT INTO v3_ticks (network, pool, tick, block_number, liquidity_net, liquidity_gross)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, pool, tick, block_number) DO UPDATE SET
         liquidity_net = excluded.liquidity_net, liquidity_gross = excluded.liquidity_gross`,
    ),
    deletePricesAbove: db.prepare<[string, bigint]>(
      "DELETE FROM v3_prices WHERE network = ? AND block_number > ?",
    ),
    deleteTicksAbove: db.prepare<[string, bigint]>(
      "DELETE FROM v3_ticks WHERE network = ? AND block_number > ?",
    ),
    prunePrices: db.prepare<[string, bigint, bigint]>(
      `DELETE FROM v3_prices AS r WHERE r.network = ? AND r.block_number < ? AND EXISTS (
         SELECT 1 FROM v3_prices AS n WHERE n.network = r.network AND n.pool = r.pool
           AND n.block_number > r.block_number AND n.block_number <= ?)`,
    ),
    pruneTicks: db.prepare<[string, bigint, bigint]>(
      `DELETE FROM v3_ticks AS r WHERE r.network = ? AND r.block_number < ? AND (r.liquidity_gross = '0'
         OR EXISTS (SELECT 1 FROM v3_ticks AS n WHERE n.network = r.network AND n.pool = r.pool
           AND n.tick = r.tick AND n.block_number > r.block_number AND n.block_number <= ?))`,
    ),
    // Newest rows of everything: max() makes SQLite take the other columns from the row holding
    // the maximum, in one ordered pass over the primary key.
    listPrices: db.prepare<[string], V3PriceRow>(
      `SELECT pool, max(block_number) AS block_number, log_index, sqrt_price_x96, tick, liquidity,
         balance0, balance1
       FROM v3_prices WHERE network = ? GROUP BY pool ORDER BY pool`,
    ),
    listTicks: db.prepare<[string], V3TickRow>(
      `SELECT pool, tick, block_number, liquidity_net, liquidity_gross FROM (
         SELECT pool, tick, max(block_number) AS block_number, liquidity_net, liquidity_gross
         FROM v3_ticks WHERE network = ? GROUP BY pool, tick)
       WHERE liquidity_gross <> '0' ORDER BY pool, tick`,
    ),
    // Newest rows since a block (a follower's poll): the few rows above it over the block index,
    // each checked against a newer row over the primary key (measured at 200k tick rows: 13-41 ms
    // for 5,000 changed ticks, 74 ms for the ordered pass above).
    listPricesSince: db.prepare<[string, bigint], V3PriceRow>(
      `SELECT pool, block_number, log_index, sqrt_price_x96, tick, liquidity, balance0, balance1
       FROM v3_prices AS r
       WHERE r.network = ? AND r.block_number >= ? AND NOT EXISTS (SELECT 1 FROM v3_prices AS n
         WHERE n.network = r.network AND n.pool = r.pool AND n.block_number > r.block_number)
       ORDER BY pool`,
    ),
    listTicksSince: db.prepare<[string, bigint], V3TickRow>(
      `SELECT pool, tick, block_number, liquidity_net, liquidity_gross FROM v3_ticks AS r
       WHERE r.network = ? AND r.block_number >= ? AND NOT EXISTS (SELECT 1 FROM v3_ticks AS n
         WHERE n.network = r.network AND n.pool = r.pool AND n.tick = r.tick AND n.block_number > r.block_number)
       ORDER BY pool, tick`,
    ),
  };
}

type V3StepTypes =
  | "upsertV3Prices"
  | "upsertV3Ticks"
  | "deleteV3PricesAbove"
  | "deleteV3TicksAbove"
  | "pruneV3PricesBelow"
  | "pruneV3TicksBelow";

/** The SQLite tables of V3 pool state: prices and tick liquidity per block. */
export function createSqliteV3Pools(db: Database.Database): {
  steps: Pick<WriteHandlers<NetworkName>, V3StepTypes>;
  methods: Pick<Store, "listV3Prices" | "listV3Ticks">;
} {
  // Prepared on first use, after migrate() created the tables.
  let statements: ReturnType<typeof prepareV3Statements> | undefined;
  const s = () => (statements ??= prepareV3Statements(db));
  return {
    steps: {
      upsertV3Prices(network, { prices }) {
        const statement = s().upsertPrice;
        for (const p of prices) {
          statement.run(
            network,
            p.pool,
            p.blockNumber,
            p.logIndex,
            p.sqrtPriceX96.toString(),
            p.tick,
            p.liquidity.toString(),
            p.balances?.balance0.toString() ?? null,
            p.balances?.balance1.toString() ?? null,
          );
        }
      },
      upsertV3Ticks(network, { ticks }) {
        const statement = s().upsertTick;
        for (const t of ticks) {
          statement.run(
            network,
            t.pool,
            t.tick,
            t.blockNumber,
            t.liquidityNet.toString(),
            t.liquidityGross.toString(),
          );
        }
      },
      deleteV3PricesAbove(network, { blockNumber }) {
        s().deletePricesAbove.run(network, blockNumber);
      },
      deleteV3TicksAbove(network, { blockNumber }) {
        s().deleteTicksAbove.run(network, blockNumber);
      },
      pruneV3PricesBelow(network, { blockNumber }) {
        s().prunePrices.run(network, blockNumber, blockNumber);
      },
      pruneV3TicksBelow(network, { blockNumber }) {
        s().pruneTicks.run(network, blockNumber, blockNumber);
      },
    },
    methods: {
      async listV3Prices(network, sinceBlock) {
        const rows =
          sinceBlock === undefined
            ? s().listPrices.all(network)
            : s().listPricesSince.all(network, sinceBlock);
        return rows.map(decodeV3Price);
      },
      async listV3Ticks(network, sinceBlock) {
        // Since a block, gross-0 rows stay: a follower learns that a tick left.
        const rows =
          sinceBlock === undefined ? s().listTicks.all(network) : s().listTicksSince.all(network, sinceBlock);
        return rows.map(decodeV3Tick);
      },
    },
  };
}
