import type postgres from "postgres";
import type { Hash, NetworkName } from "../../domain/types.js";
import type { AsyncWriteHandlers } from "../plan/writeSteps.js";
import { type BlockRow, decodeBlock, decodeHead, type HeadRow, lastByKey } from "../rowCodec.js";
import type { Store } from "../types.js";
import { plainArray, textArray } from "./arrayLiterals.js";
import type { PostgresWrite } from "./postgresWrite.js";

/** The PostgreSQL tables of where a network stands: its checkpoint, stored blocks and head. */
export function createPostgresCursor(
  sql: postgres.Sql,
  assertWriter: (tx: postgres.TransactionSql, network: NetworkName) => Promise<void>,
): {
  steps: Pick<
    AsyncWriteHandlers<PostgresWrite>,
    "upsertBlocks" | "deleteBlocksAbove" | "deleteBlocksBelow" | "setCheckpoint"
  >;
  methods: Pick<Store, "getCheckpoint" | "listBlocks" | "saveHead" | "getHead">;
} {
  return {
    steps: {
      async upsertBlocks({ tx, network }, step) {
        const blocks = lastByKey(step.blocks, (b) => b.number.toString());
        await tx`INSERT INTO blocks (network, number, hash, parent_hash, timestamp)
          SELECT ${network}::text, * FROM unnest(
            ${plainArray(blocks.map((b) => b.number))}::int8[],
            ${textArray(blocks.map((b) => b.hash))}::text[],
            ${textArray(blocks.map((b) => b.parentHash))}::text[],
            ${plainArray(blocks.map((b) => b.timestamp))}::int8[])
          ON CONFLICT (network, number) DO UPDATE SET hash = excluded.hash,
            parent_hash = excluded.parent_hash, timestamp = excluded.timestamp`;
      },
      async deleteBlocksAbove({ tx, network }, { blockNumber }) {
        await tx`DELETE FROM blocks WHERE network = ${network} AND number > ${blockNumber.toString()}::int8`;
      },
      async deleteBlocksBelow({ tx, network }, { blockNumber }) {
        await tx`DELETE FROM blocks WHERE network = ${network} AND number < ${blockNumber.toString()}::int8`;
      },
      async setCheckpoint({ tx, network }, { checkpoint }) {
        await tx`INSERT INTO checkpoints (network, block_number, block_hash)
          VALUES (${network}, ${checkpoint.blockNumber.toString()}::int8, ${checkpoint.blockHash})
          ON CONFLICT (network) DO UPDATE SET block_number = excluded.block_number, block_hash = excluded.block_hash`;
      },
    },
    methods: {
      async getCheckpoint(network) {
        const [row] = await sql<{ block_number: string; block_hash: string }[]>`
          SELECT block_number, block_hash FROM checkpoints WHERE network = ${network}`;
        return row === undefined
          ? undefined
          : { blockNumber: BigInt(row.block_number), blockHash: row.block_hash as Hash };
      },
      async listBlocks(network, fromBlock = 0n) {
        const rows = await sql<BlockRow[]>`
          SELECT number, hash, parent_hash, timestamp FROM blocks
          WHERE network = ${network} AND number >= ${fromBlock.toString()}::int8 ORDER BY number`;
        return rows.map(decodeBlock);
      },
      async saveHead(network, head) {
        await sql.begin(async (tx) => {
          await assertWriter(tx, network);
          await tx`INSERT INTO heads (network, head_block, checked_at, synced_at)
            VALUES (${network}, ${head.headBlock.toString()}::int8, ${head.checkedAt}::int8,
              ${head.syncedAt ?? null}::int8)
            ON CONFLICT (network) DO UPDATE SET head_block = excluded.head_block,
              checked_at = excluded.checked_at, synced_at = excluded.synced_at`;
        });
      },
      async getHead(network) {
        const [row] = await sql<HeadRow[]>`
          SELECT head_block, checked_at, synced_at FROM heads WHERE network = ${network}`;
        return row === undefined ? undefined : decodeHead(row);
      },
    },
  };
}
