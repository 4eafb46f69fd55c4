import type postgres from "postgres";
import type { Hash, NetworkName } from "../../domain/types.js";
import type { AsyncWriteHandlers } from "../plan/writeSteps.js";
import { decodeHead, type HeadRow } from "../rowCodec.js";
import type { Store } from "../types.js";
import type { PostgresWrite } from "./postgresWrite.js";

/** The PostgreSQL tables of where a network stands: its checkpoint and head (its blocks: createPostgresTables). */
export function createPostgresCursor(
  sql: postgres.Sql,
  assertWriter: (tx: postgres.TransactionSql, network: NetworkName) => Promise<void>,
): {
  steps: Pick<AsyncWriteHandlers<PostgresWrite>, "setCheckpoint">;
  methods: Pick<Store, "getCheckpoint" | "saveHead" | "getHead">;
} {
  return {
    steps: {
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
