import type postgres from "postgres";
import type { Address } from "../../domain/types.js";
import type { AsyncWriteHandlers } from "../plan/writeSteps.js";
import {
  decodePair,
  decodeReserves,
  decodeToken,
  lastByKey,
  PAIR_COLUMNS,
  type PairRow,
  type ReservesRow,
  type TokenRow,
} from "../rowCodec.js";
import type { Store } from "../types.js";
import { nullableArray, nullableTextArray, plainArray, textArray } from "./arrayLiterals.js";
import type { PostgresWrite } from "./postgresWrite.js";

/** The PostgreSQL tables of pools and tokens: pairs, reserves, token metadata and rejected pairs. */
export function createPostgresPools(sql: postgres.Sql): {
  steps: Pick<
    AsyncWriteHandlers<PostgresWrite>,
    "upsertPairs" | "upsertReserves" | "deleteReservesAbove" | "pruneReservesBelow"
  >;
  methods: Pick<
    Store,
    "listPairs" | "listReserves" | "upsertTokens" | "listTokens" | "addRejectedPairs" | "listRejectedPairs"
  >;
} {
  return {
    steps: {
      async upsertPairs({ tx, network }, step) {
        const pairs = lastByKey(step.pairs, (p) => p.address);
        // A pair written again without its creation keeps the one it has (found once, it stays).
        await tx`INSERT INTO pairs (network, address, dex, factory, token0, token1, fee_bps, v3_fee, v3_tick_spacing,
            created_block, created_timestamp, created_tx)
          SELECT ${network}::text, * FROM unnest(
            ${textArray(pairs.map((p) => p.address))}::text[],
            ${textArray(pairs.map((p) => p.dex))}::text[],
            ${textArray(pairs.map((p) => p.factory))}::text[],
            ${textArray(pairs.map((p) => p.token0))}::text[],
            ${textArray(pairs.map((p) => p.token1))}::text[],
            ${plainArray(pairs.map((p) => p.feeBps))}::int4[],
            ${nullableArray(pairs.map((p) => p.v3?.fee))}::int4[],
            ${nullableArray(pairs.map((p) => p.v3?.tickSpacing))}::int4[],
            ${nullableArray(pairs.map((p) => p.created?.blockNumber))}::int8[],
            ${nullableArray(pairs.map((p) => p.created?.timestamp))}::int8[],
            ${nullableTextArray(pairs.map((p) => p.created?.txHash))}::text[])
          ON CONFLICT (network, address) DO UPDATE SET dex = excluded.dex, factory = excluded.factory,
            token0 = excluded.token0, token1 = excluded.token1, fee_bps = excluded.fee_bps,
            v3_fee = excluded.v3_fee, v3_tick_spacing = excluded.v3_tick_spacing,
            created_block = coalesce(excluded.created_block, pairs.created_block),
            created_timestamp = coalesce(excluded.created_timestamp, pairs.created_timestamp),
            created_tx = coalesce(excluded.created_tx, pairs.created_tx)`;
      },
      async upsertReserves({ tx, network }, step) {
        const reserves = lastByKey(step.reserves, (r) => `${r.pair}:${r.blockNumber}`);
        await tx`INSERT INTO reserves (network, pair, block_number, log_index, reserve0, reserve1)
          SELECT ${network}::text, * FROM unnest(
            ${textArray(reserves.map((r) => r.pair))}::text[],
            ${plainArray(reserves.map((r) => r.blockNumber))}::int8[],
            ${plainArray(reserves.map((r) => r.logIndex))}::int4[],
            ${plainArray(reserves.map((r) => r.reserve0))}::numeric[],
            ${plainArray(reserves.map((r) => r.reserve1))}::numeric[])
          ON CONFLICT (network, pair, block_number) DO UPDATE SET log_index = excluded.log_index,
            reserve0 = excluded.reserve0, reserve1 = excluded.reserve1`;
      },
      async deleteReservesAbove({ tx, network }, { blockNumber }) {
        await tx`DELETE FROM reserves WHERE network = ${network} AND block_number > ${blockNumber.toString()}::int8`;
      },
      async pruneReservesBelow({ tx, network }, { blockNumber }) {
        await tx`DELETE FROM reserves AS r WHERE r.network = ${network}
          AND r.block_number < ${blockNumber.toString()}::int8
          AND EXISTS (SELECT 1 FROM reserves AS n
            WHERE n.network = r.network AND n.pair = r.pair AND n.block_number > r.block_number)`;
      },
    },
    methods: {
      async listPairs(network) {
        const rows = await sql<
          PairRow[]
        >`SELECT ${sql.unsafe(PAIR_COLUMNS)} FROM pairs WHERE network = ${network} ORDER BY address`;
        return rows.map(decodePair);
      },
      async listReserves(network, sinceBlock = 0n) {
        const rows = await sql<
          ReservesRow[]
        >`SELECT DISTINCT ON (pair) pair, block_number, log_index, reserve0, reserve1 FROM reserves
          WHERE network = ${network} AND block_number >= ${sinceBlock.toString()}::int8
          ORDER BY pair, block_number DESC`;
        return rows.map(decodeReserves);
      },
      async upsertTokens(network, tokens) {
        const unique = lastByKey(tokens, (t) => t.address);
        if (unique.length === 0) return;
        await sql.begin(async (tx) => {
          await tx`INSERT INTO tokens (network, address, name, symbol, decimals)
            SELECT ${network}::text, * FROM unnest(
              ${textArray(unique.map((t) => t.address))}::text[],
              ${textArray(unique.map((t) => t.name))}::text[],
              ${textArray(unique.map((t) => t.symbol))}::text[],
              ${plainArray(unique.map((t) => t.decimals))}::int4[])
            ON CONFLICT (network, address) DO UPDATE SET name = excluded.name, symbol = excluded.symbol,
              decimals = excluded.decimals`;
        });
      },
      async listTokens(network) {
        const rows = await sql<TokenRow[]>`
          SELECT address, name, symbol, decimals FROM tokens WHERE network = ${network} ORDER BY address`;
        return rows.map(decodeToken);
      },
      async addRejectedPairs(network, pairs) {
        if (pairs.length === 0) return;
        await sql.begin(async (tx) => {
          await tx`INSERT INTO rejected_pairs (network, address)
            SELECT ${network}::text, * FROM unnest(${textArray(pairs)}::text[])
            ON CONFLICT DO NOTHING`;
        });
      },
      async listRejectedPairs(network) {
        const rows = await sql<{ address: string }[]>`
          SELECT address FROM rejected_pairs WHERE network = ${network} ORDER BY address`;
        return rows.map((row) => row.address as Address);
      },
    },
  };
}
