import type Database from "better-sqlite3";
import type { Address, NetworkName, Token } from "../../domain/types.js";
import type { WriteHandlers } from "../plan/writeSteps.js";
import {
  decodePair,
  decodeReserves,
  decodeToken,
  PAIR_COLUMNS,
  type PairRow,
  type ReservesRow,
  type TokenRow,
} from "../rowCodec.js";
import type { Store } from "../types.js";

function preparePoolStatements(db: Database.Database) {
  return {
    upsertPair: db.prepare<
      [
        string,
        string,
        string,
        string,
        string,
        string,
        number,
        number | null,
        number | null,
        bigint | null,
        number | null,
        string | null,
      ]
    >(
      // A pair written again without its creation keeps the one it has (found once, it stays).
      `INSERT INTO pairs (network, ${PAIR_COLUMNS})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, address) DO UPDATE SET dex = excluded.dex, factory = excluded.factory,
         token0 = excluded.token0, token1 = excluded.token1, fee_bps = excluded.fee_bps,
         v3_fee = excluded.v3_fee, v3_tick_spacing = excluded.v3_tick_spacing,
         created_block = coalesce(excluded.created_block, pairs.created_block),
         created_timestamp = coalesce(excluded.created_timestamp, pairs.created_timestamp),
         created_tx = coalesce(excluded.created_tx, pairs.created_tx)`,
    ),
    upsertReserves: db.prepare<[string, string, bigint, number, string, string]>(
      `INSERT INTO reserves (network, pair, block_number, log_index, reserve0, reserve1) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (network, pair, block_number) DO UPDATE SET log_index = excluded.log_index,
         reserve0 = excluded.reserve0, reserve1 = excluded.reserve1`,
    ),
    deleteReservesAbove: db.prepare<[string, bigint]>(
      "DELETE FROM reserves WHERE network = ? AND block_number > ?",
    ),
    deleteReservesBelow: db.prepare<[string, bigint]>(
      `DELETE FROM reserves AS r WHERE r.network = ? AND r.block_number < ? AND EXISTS (
         SELECT 1 FROM reserves AS n WHERE n.network = r.network AND n.pair = r.pair AND n.block_number > r.block_number)`,
    ),
    listPairs: db.prepare<[string], PairRow>(
      `SELECT ${PAIR_COLUMNS} FROM pairs WHERE network = ? ORDER BY address`,
    ),
    listReserves: db.prepare<[string, bigint], ReservesRow>(
      `SELECT pair, block_number, log_index, reserve0, reserve1 FROM (
         SELECT *, row_number() OVER (PARTITION BY pair ORDER BY block_number DESC) AS rank
         FROM reserves WHERE network = ? AND block_number >= ?)
       WHERE rank = 1 ORDER BY pair`,
    ),
    upsertToken: db.prepare<[string, string, string, string, number]>(
      `INSERT INTO tokens (network, address, name, symbol, decimals) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (network, address) DO UPDATE SET name = excluded.name, symbol = excluded.symbol,
         decimals = excluded.decimals`,
    ),
    listTokens: db.prepare<[string], TokenRow>(
      "SELECT address, name, symbol, decimals FROM tokens WHERE network = ? ORDER BY address",
    ),
    addRejectedPair: db.prepare<[string, string]>(
      "INSERT INTO rejected_pairs (network, address) VALUES (?, ?) ON CONFLICT DO NOTHING",
    ),
    listRejectedPairs: db.prepare<[string], { address: string }>(
      "SELECT address FROM rejected_pairs WHERE network = ? ORDER BY address",
    ),
  };
}

/** The SQLite tables of pools and tokens: pairs, reserves, token metadata and rejected pairs. */
export function createSqlitePools(db: Database.Database): {
  steps: Pick<
    WriteHandlers<NetworkName>,
    "upsertPairs" | "upsertReserves" | "deleteReservesAbove" | "pruneReservesBelow"
  >;
  methods: Pick<
    Store,
    "listPairs" | "listReserves" | "upsertTokens" | "listTokens" | "addRejectedPairs" | "listRejectedPairs"
  >;
} {
  // Prepared on first use, after migrate() created the tables.
  let statements: ReturnType<typeof preparePoolStatements> | undefined;
  const s = () => (statements ??= preparePoolStatements(db));
  const upsertTokens = db.transaction((network: NetworkName, tokens: readonly Token[]) => {
    for (const t of tokens) s().upsertToken.run(network, t.address, t.name, t.symbol, t.decimals);
  });
  const addRejected = db.transaction((network: NetworkName, pairs: readonly Address[]) => {
    for (const address of pairs) s().addRejectedPair.run(network, address);
  });
  return {
    steps: {
      upsertPairs(network, { pairs }) {
        for (const p of pairs) {
          const { address, dex, factory, token0, token1, feeBps, v3, created } = p;
          s().upsertPair.run(
            network,
            address,
            dex,
            factory,
            token0,
            token1,
            feeBps,
            v3?.fee ?? null,
            v3?.tickSpacing ?? null,
            created?.blockNumber ?? null,
            created?.timestamp ?? null,
            created?.txHash ?? null,
          );
        }
      },
      upsertReserves(network, { reserves }) {
        for (const r of reserves) {
          s().upsertReserves.run(
            network,
            r.pair,
            r.blockNumber,
            r.logIndex,
            r.reserve0.toString(),
            r.reserve1.toString(),
          );
        }
      },
      deleteReservesAbove(network, { blockNumber }) {
        s().deleteReservesAbove.run(network, blockNumber);
      },
      pruneReservesBelow(network, { blockNumber }) {
        s().deleteReservesBelow.run(network, blockNumber);
      },
    },
    methods: {
      async listPairs(network) {
        return s().listPairs.all(network).map(decodePair);
      },
      async listReserves(network, sinceBlock = 0n) {
        return s().listReserves.all(network, sinceBlock).map(decodeReserves);
      },
      async upsertTokens(network, tokens) {
        upsertTokens.immediate(network, tokens);
      },
      async listTokens(network) {
        return s().listTokens.all(network).map(decodeToken);
      },
      async addRejectedPairs(network, pairs) {
        addRejected.immediate(network, pairs);
      },
      async listRejectedPairs(network) {
        return s()
          .listRejectedPairs.all(network)
          .map((row) => row.address as Address);
      },
    },
  };
}
