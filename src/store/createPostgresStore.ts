import postgres from "postgres";
import type { Address, Hash, NetworkName } from "../domain/types.js";
import { ConfigError, LostWriterLockError } from "../errors.js";
import { MIGRATIONS } from "./migrations.js";
import {
  assertTradeNetworks,
  type BlockRow,
  decodeBlock,
  decodePair,
  decodeReserves,
  decodeToken,
  decodeTrade,
  encodePools,
  lastByKey,
  type PairRow,
  type ReservesRow,
  type TokenRow,
  type TradeRow,
} from "./rowCodec.js";
import type { Store } from "./types.js";

export interface PostgresStoreOptions {
  /** A postgres:// connection URL. */
  url: string;
  /** Schema for every table, created by migrate() if missing and set as search_path on every connection. */
  schema?: string;
  /** Pool size (default 10). */
  max?: number;
}

/** First key of the two-key advisory lock that serialises migrations ("swgr"); the second is the schema. */
const MIGRATION_LOCK = 0x73776772;
// Session-level advisory lock of the single indexer (writer) of a network: class key.
const WRITER_LOCK = 0x73777772;

/** The pg_locks (classid, objid) of a network's writer lock: for operators' queries and tests. */
export function writerLockKey(
  schema: string | undefined,
  network: NetworkName,
): { classid: number; objid: number } {
  return { classid: WRITER_LOCK, objid: lockKey(`${schema ?? ""}:${network}`) };
}

/** A non-negative int4 from a string (FNV-1a), so pg_locks.objid can be compared directly. */
function lockKey(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 1) & 0x7fffffff;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

// Bulk writes send one array literal per column through unnest() instead of one parameter per value
// (which would pass the 65,535-parameter limit at 20k rows and costs far more to bind).

/** Array literal of numbers, bigints or booleans: their text never needs quoting. */
function plainArray(values: readonly (number | bigint | boolean)[]): string {
  return `{${values.join(",")}}`;
}

/** Array literal of text: every element quoted, so "" (the native coin) and commas (pools) survive. */
function textArray(values: readonly string[]): string {
  if (values.length === 0) return "{}";
  // Hashes and addresses never need escaping; token names and symbols might.
  const escaped = values.some((v) => v.includes('"') || v.includes("\\"))
    ? values.map((v) => v.replace(/[\\"]/g, "\\$&"))
    : values;
  return `{"${escaped.join('","')}"}`;
}

/** The production store: PostgreSQL through postgres.js (NUMERIC(78,0) amounts, bulk unnest writes). */
export function createPostgresStore(options: PostgresStoreOptions): Store {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new ConfigError("invalid PostgreSQL schema name", {
      details: `got "${schema}", expected lowercase letters, digits and underscores, not starting with a digit`,
    });
  }
  const sql = postgres(options.url, {
    max: options.max ?? 10,
    // "schema already exists, skipping" and similar notices are expected, not news.
    onnotice: () => {},
    connection: schema === undefined ? {} : { search_path: schema },
  });

  // The writer locks live on one reserved session for the life of the store: if that session
  // dies, PostgreSQL drops the locks and every write below refuses to commit (fencing).
  let lockSession: postgres.ReservedSql | undefined;
  let lockPid: number | undefined;
  const held = new Set<NetworkName>();
  const writerKey = (network: NetworkName) => writerLockKey(schema, network).objid;

  // Networks whose lock this store held and lost: their writes are refused until it is taken again.
  const lost = new Set<NetworkName>();

  async function assertWriter(tx: postgres.TransactionSql, network: NetworkName): Promise<void> {
    if (lost.has(network)) throw new LostWriterLockError(network);
    if (!held.has(network)) return;
    const [row] = await tx<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND pid = ${lockPid!}
        AND classid = ${WRITER_LOCK}::oid AND objid = ${writerKey(network)}::oid AND objsubid = 2`;
    if (row?.n !== 1) {
      held.delete(network);
      lost.add(network);
      throw new LostWriterLockError(network);
    }
  }

  return {
    kind: "postgres",

    async tryAcquireWriter(network) {
      if (held.has(network)) return true;
      try {
        if (lockSession === undefined) {
          lockSession = await sql.reserve();
          const [row] = await lockSession<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          lockPid = row!.pid;
        }
        const [row] = await lockSession<{ locked: boolean }[]>`
          SELECT pg_try_advisory_lock(${WRITER_LOCK}::int4, ${writerKey(network)}::int4) AS locked`;
        if (row?.locked !== true) return false;
        held.add(network);
        lost.delete(network);
        return true;
      } catch (error) {
        // The lock session died: every lock it held is gone; the next try opens a new one.
        for (const name of held) lost.add(name);
        held.clear();
        lockSession = undefined;
        throw error;
      }
    },

    async migrate() {
      await sql.begin(async (tx) => {
        // Taken before anything else: two processes starting at once must not both create tables.
        await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK}::int4, hashtext(${schema ?? ""}))`;
        if (schema !== undefined) await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await tx.unsafe(`CREATE TABLE IF NOT EXISTS schema_migrations (
          version int4 PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
        const rows = await tx<{ version: number }[]>`SELECT version FROM schema_migrations`;
        const applied = new Set(rows.map((row) => row.version));
        for (const migration of MIGRATIONS) {
          if (applied.has(migration.version)) continue;
          await tx.unsafe(migration.postgres);
          await tx`INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, ${migration.name})`;
        }
      });
    },

    async close() {
      // Ending the sessions releases the writer locks.
      held.clear();
      await sql.end({ timeout: 5 });
    },

    async getCheckpoint(network) {
      const [row] = await sql<{ block_number: string; block_hash: string }[]>`
        SELECT block_number, block_hash FROM checkpoints WHERE network = ${network}`;
      return row === undefined
        ? undefined
        : { blockNumber: BigInt(row.block_number), blockHash: row.block_hash as Hash };
    },

    async commitRange(network, batch) {
      assertTradeNetworks(network, batch.trades);
      const { trades } = batch;
      const blocks = lastByKey(batch.blocks, (b) => b.number.toString());
      const pairs = lastByKey(batch.pairs, (p) => p.address);
      const reserves = lastByKey(batch.reserves, (r) => `${r.pair}:${r.blockNumber}`);
      await sql.begin(async (tx) => {
        await assertWriter(tx, network);
        if (trades.length > 0) {
          const hashes = textArray(trades.map((t) => t.txHash));
          // Delete then insert: a replaced trade gets a new seq, so replicas tailing by seq see it again.
          await tx`DELETE FROM trades WHERE network = ${network}
            AND tx_hash = ANY(${hashes}::text[])`;
          await tx`INSERT INTO trades (network, tx_hash, block_number, timestamp, tx_index, sender, token_in,
              amount_in, token_out, amount_out, volume_usd, tracked, pools)
            SELECT ${network}::text, * FROM unnest(
              ${hashes}::text[],
              ${plainArray(trades.map((t) => t.blockNumber))}::int8[],
              ${plainArray(trades.map((t) => t.timestamp))}::int8[],
              ${plainArray(trades.map((t) => t.txIndex))}::int4[],
              ${textArray(trades.map((t) => t.sender))}::text[],
              ${textArray(trades.map((t) => t.tokenIn))}::text[],
              ${plainArray(trades.map((t) => t.amountIn))}::numeric[],
              ${textArray(trades.map((t) => t.tokenOut))}::text[],
              ${plainArray(trades.map((t) => t.amountOut))}::numeric[],
              ${plainArray(trades.map((t) => t.volumeUsd))}::numeric[],
              ${plainArray(trades.map((t) => t.tracked))}::bool[],
              ${textArray(trades.map((t) => encodePools(t.pools)))}::text[])`;
        }
        if (blocks.length > 0) {
          await tx`INSERT INTO blocks (network, number, hash, parent_hash, timestamp)
            SELECT ${network}::text, * FROM unnest(
              ${plainArray(blocks.map((b) => b.number))}::int8[],
              ${textArray(blocks.map((b) => b.hash))}::text[],
              ${textArray(blocks.map((b) => b.parentHash))}::text[],
              ${plainArray(blocks.map((b) => b.timestamp))}::int8[])
            ON CONFLICT (network, number) DO UPDATE SET hash = excluded.hash,
              parent_hash = excluded.parent_hash, timestamp = excluded.timestamp`;
        }
        if (pairs.length > 0) {
          await tx`INSERT INTO pairs (network, address, dex, factory, token0, token1, fee_bps)
            SELECT ${network}::text, * FROM unnest(
              ${textArray(pairs.map((p) => p.address))}::text[],
              ${textArray(pairs.map((p) => p.dex))}::text[],
              ${textArray(pairs.map((p) => p.factory))}::text[],
              ${textArray(pairs.map((p) => p.token0))}::text[],
              ${textArray(pairs.map((p) => p.token1))}::text[],
              ${plainArray(pairs.map((p) => p.feeBps))}::int4[])
            ON CONFLICT (network, address) DO UPDATE SET dex = excluded.dex, factory = excluded.factory,
              token0 = excluded.token0, token1 = excluded.token1, fee_bps = excluded.fee_bps`;
        }
        if (reserves.length > 0) {
          await tx`INSERT INTO reserves (network, pair, block_number, log_index, reserve0, reserve1)
            SELECT ${network}::text, * FROM unnest(
              ${textArray(reserves.map((r) => r.pair))}::text[],
              ${plainArray(reserves.map((r) => r.blockNumber))}::int8[],
              ${plainArray(reserves.map((r) => r.logIndex))}::int4[],
              ${plainArray(reserves.map((r) => r.reserve0))}::numeric[],
              ${plainArray(reserves.map((r) => r.reserve1))}::numeric[])
            ON CONFLICT (network, pair, block_number) DO UPDATE SET log_index = excluded.log_index,
              reserve0 = excluded.reserve0, reserve1 = excluded.reserve1`;
        }
        const { blockNumber, blockHash } = batch.checkpoint;
        await tx`INSERT INTO checkpoints (network, block_number, block_hash)
          VALUES (${network}, ${blockNumber.toString()}::int8, ${blockHash})
          ON CONFLICT (network) DO UPDATE SET block_number = excluded.block_number, block_hash = excluded.block_hash`;
      });
    },

    async rollback(network, ancestor) {
      const above = ancestor.blockNumber.toString();
      await sql.begin(async (tx) => {
        await assertWriter(tx, network);
        await tx`DELETE FROM trades WHERE network = ${network} AND block_number > ${above}::int8`;
        await tx`DELETE FROM blocks WHERE network = ${network} AND number > ${above}::int8`;
        await tx`DELETE FROM reserves WHERE network = ${network} AND block_number > ${above}::int8`;
        await tx`INSERT INTO checkpoints (network, block_number, block_hash)
          VALUES (${network}, ${above}::int8, ${ancestor.blockHash})
          ON CONFLICT (network) DO UPDATE SET block_number = excluded.block_number, block_hash = excluded.block_hash`;
      });
    },

    async prune(network, opts) {
      const below = opts.blocksBelow.toString();
      await sql.begin(async (tx) => {
        await tx`DELETE FROM trades WHERE network = ${network} AND timestamp < ${opts.tradesBefore}::int8`;
        await tx`DELETE FROM blocks WHERE network = ${network} AND number < ${below}::int8`;
        // A pair's newest row is its current state however old it is: only rows with a newer one go.
        await tx`DELETE FROM reserves AS r WHERE r.network = ${network} AND r.block_number < ${below}::int8
          AND EXISTS (SELECT 1 FROM reserves AS n
            WHERE n.network = r.network AND n.pair = r.pair AND n.block_number > r.block_number)`;
      });
    },

    async listBlocks(network, fromBlock = 0n) {
      const rows = await sql<BlockRow[]>`
        SELECT number, hash, parent_hash, timestamp FROM blocks
        WHERE network = ${network} AND number >= ${fromBlock.toString()}::int8 ORDER BY number`;
      return rows.map(decodeBlock);
    },

    async listTrades(network, sinceTimestamp) {
      const rows = await sql<
        TradeRow[]
      >`SELECT seq, network, tx_hash, block_number, timestamp, tx_index, sender, token_in, amount_in,
        token_out, amount_out, volume_usd, tracked, pools FROM trades
        WHERE network = ${network} AND timestamp >= ${sinceTimestamp}::int8
        ORDER BY block_number, tx_index, seq`;
      return rows.map(decodeTrade);
    },

    async listTradesAfter(network, afterSeq) {
      const rows = await sql<
        TradeRow[]
      >`SELECT seq, network, tx_hash, block_number, timestamp, tx_index, sender, token_in, amount_in,
        token_out, amount_out, volume_usd, tracked, pools FROM trades
        WHERE network = ${network} AND seq > ${afterSeq.toString()}::int8 ORDER BY seq`;
      return rows.map(decodeTrade);
    },

    async listPairs(network) {
      const rows = await sql<
        PairRow[]
      >`SELECT address, dex, factory, token0, token1, fee_bps FROM pairs WHERE network = ${network} ORDER BY address`;
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
  };
}
