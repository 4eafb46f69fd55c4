import type Database from "better-sqlite3";
import type { NetworkName } from "../../domain/types.js";
import type { WriteHandlers } from "../plan/writeSteps.js";
import type { Store } from "../types.js";
import { decodeV3Price, decodeV3Tick, type V3PriceRow, type V3TickRow } from "../v3RowCodec.js";

// "Newest row" reads are NOT EXISTS over the primary key: a follower's read since a recent block
// walks the block index over a few rows, a full read one row per pool or tick after pruning.
function prepareV3Statements(db: Database.Database) {
  return {
    upsertPrice: db.prepare<[string, string, bigint, number, string, number, string]>(
      `INSERT INTO v3_prices (network, pool, block_number, log_index, sqrt_price_x96, tick, liquidity)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, pool, block_number) DO UPDATE SET log_index = excluded.log_index,
         sqrt_price_x96 = excluded.sqrt_price_x96, tick = excluded.tick, liquidity = excluded.liquidity`,
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
    listPrices: db.prepare<[string, bigint], V3PriceRow>(
      `SELECT pool, block_number, log_index, sqrt_price_x96, tick, liquidity FROM v3_prices AS r
       WHERE r.network = ? AND r.block_number >= ? AND NOT EXISTS (SELECT 1 FROM v3_prices AS n
         WHERE n.network = r.network AND n.pool = r.pool AND n.block_number > r.block_number)
       ORDER BY pool`,
    ),
    listTicks: db.prepare<[string, bigint, number], V3TickRow>(
      `SELECT pool, tick, block_number, liquidity_net, liquidity_gross FROM v3_ticks AS r
       WHERE r.network = ? AND r.block_number >= ? AND NOT EXISTS (SELECT 1 FROM v3_ticks AS n
         WHERE n.network = r.network AND n.pool = r.pool AND n.tick = r.tick AND n.block_number > r.block_number)
         AND (? = 1 OR r.liquidity_gross <> '0')
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
      async listV3Prices(network, sinceBlock = 0n) {
        return s().listPrices.all(network, sinceBlock).map(decodeV3Price);
      },
      async listV3Ticks(network, sinceBlock) {
        return s()
          .listTicks.all(network, sinceBlock ?? 0n, sinceBlock === undefined ? 0 : 1)
          .map(decodeV3Tick);
      },
    },
  };
}
