import type postgres from "postgres";
import type { AsyncWriteHandlers } from "../plan/writeSteps.js";
import { lastByKey } from "../rowCodec.js";
import type { Store } from "../types.js";
import { decodeV3Price, decodeV3Tick, type V3PriceRow, type V3TickRow } from "../v3RowCodec.js";
import { nullableArray, plainArray, textArray } from "./arrayLiterals.js";
import type { PostgresWrite } from "./postgresWrite.js";

type V3StepTypes =
  | "upsertV3Prices"
  | "upsertV3Ticks"
  | "deleteV3PricesAbove"
  | "deleteV3TicksAbove"
  | "pruneV3PricesBelow"
  | "pruneV3TicksBelow";

/** The PostgreSQL tables of V3 pool state: prices and tick liquidity per block (bulk unnest writes). */
export function createPostgresV3Pools(sql: postgres.Sql): {
  steps: Pick<AsyncWriteHandlers<PostgresWrite>, V3StepTypes>;
  methods: Pick<Store, "listV3Prices" | "listV3Ticks">;
} {
  return {
    steps: {
      async upsertV3Prices({ tx, network }, step) {
        const prices = lastByKey(step.prices, (p) => `${p.pool}:${p.blockNumber}`);
        await tx`INSERT INTO v3_prices (network, pool, block_number, log_index, sqrt_price_x96, tick, liquidity,
            balance0, balance1)
          SELECT ${network}::text, * FROM unnest(
            ${textArray(prices.map((p) => p.pool))}::text[],
            ${plainArray(prices.map((p) => p.blockNumber))}::int8[],
            ${plainArray(prices.map((p) => p.logIndex))}::int4[],
            ${plainArray(prices.map((p) => p.sqrtPriceX96))}::numeric[],
            ${plainArray(prices.map((p) => p.tick))}::int4[],
            ${plainArray(prices.map((p) => p.liquidity))}::numeric[],
            ${nullableArray(prices.map((p) => p.balances?.balance0))}::numeric[],
            ${nullableArray(prices.map((p) => p.balances?.balance1))}::numeric[])
          ON CONFLICT (network, pool, block_number) DO UPDATE SET log_index = excluded.log_index,
            sqrt_price_x96 = excluded.sqrt_price_x96, tick = excluded.tick, liquidity = excluded.liquidity,
            balance0 = excluded.balance0, balance1 = excluded.balance1`;
      },
      async upsertV3Ticks({ tx, network }, step) {
        const ticks = lastByKey(step.ticks, (t) => `${t.pool}:${t.tick}:${t.blockNumber}`);
        await tx`INSERT INTO v3_ticks (network, pool, tick, block_number, liquidity_net, liquidity_gross)
          SELECT ${network}::text, * FROM unnest(
            ${textArray(ticks.map((t) => t.pool))}::text[],
            ${plainArray(ticks.map((t) => t.tick))}::int4[],
            ${plainArray(ticks.map((t) => t.blockNumber))}::int8[],
            ${plainArray(ticks.map((t) => t.liquidityNet))}::numeric[],
            ${plainArray(ticks.map((t) => t.liquidityGross))}::numeric[])
          ON CONFLICT (network, pool, tick, block_number) DO UPDATE SET
            liquidity_net = excluded.liquidity_net, liquidity_gross = excluded.liquidity_gross`;
      },
      async deleteV3PricesAbove({ tx, network }, { blockNumber }) {
        await tx`DELETE FROM v3_prices WHERE network = ${network} AND block_number > ${blockNumber.toString()}::int8`;
      },
      async deleteV3TicksAbove({ tx, network }, { blockNumber }) {
        await tx`DELETE FROM v3_ticks WHERE network = ${network} AND block_number > ${blockNumber.toString()}::int8`;
      },
      async pruneV3PricesBelow({ tx, network }, { blockNumber }) {
        const below = blockNumber.toString();
        await tx`DELETE FROM v3_prices AS r WHERE r.network = ${network} AND r.block_number < ${below}::int8
          AND EXISTS (SELECT 1 FROM v3_prices AS n WHERE n.network = r.network AND n.pool = r.pool
            AND n.block_number > r.block_number AND n.block_number <= ${below}::int8)`;
      },
      async pruneV3TicksBelow({ tx, network }, { blockNumber }) {
        const below = blockNumber.toString();
        await tx`DELETE FROM v3_ticks AS r WHERE r.network = ${network} AND r.block_number < ${below}::int8
          AND (r.liquidity_gross = 0 OR EXISTS (SELECT 1 FROM v3_ticks AS n
            WHERE n.network = r.network AND n.pool = r.pool AND n.tick = r.tick
              AND n.block_number > r.block_number AND n.block_number <= ${below}::int8))`;
      },
    },
    methods: {
      async listV3Prices(network, sinceBlock = 0n) {
        const rows = await sql<V3PriceRow[]>`
          SELECT DISTINCT ON (pool) pool, block_number, log_index, sqrt_price_x96, tick, liquidity, balance0, balance1
          FROM v3_prices
          WHERE network = ${network} AND block_number >= ${sinceBlock.toString()}::int8
          ORDER BY pool, block_number DESC`;
        return rows.map(decodeV3Price);
      },
      async listV3Ticks(network, sinceBlock) {
        const rows = await sql<V3TickRow[]>`
          SELECT * FROM (SELECT DISTINCT ON (pool, tick) pool, tick, block_number, liquidity_net, liquidity_gross
            FROM v3_ticks WHERE network = ${network} AND block_number >= ${(sinceBlock ?? 0n).toString()}::int8
            ORDER BY pool, tick, block_number DESC) AS newest
          WHERE ${sinceBlock !== undefined}::bool OR liquidity_gross <> 0
          ORDER BY pool, tick`;
        return rows.map(decodeV3Tick);
      },
    },
  };
}
