import type Database from "better-sqlite3";
import type { Hash, NetworkName } from "../../domain/types.js";
import type { WriteHandlers } from "../plan/writeSteps.js";
import { decodeHead, type HeadRow } from "../rowCodec.js";
import type { Store } from "../types.js";

// better-sqlite3 with safeIntegers: every INTEGER is a bigint.
interface CheckpointRow {
  block_number: bigint;
  block_hash: string;
}

function prepareCursorStatements(db: Database.Database) {
  return {
    getCheckpoint: db.prepare<[string], CheckpointRow>(
      "SELECT block_number, block_hash FROM checkpoints WHERE network = ?",
    ),
    upsertCheckpoint: db.prepare<[string, bigint, string]>(
      `INSERT INTO checkpoints (network, block_number, block_hash) VALUES (?, ?, ?)
       ON CONFLICT (network) DO UPDATE SET block_number = excluded.block_number, block_hash = excluded.block_hash`,
    ),
    upsertHead: db.prepare<[string, bigint, number, number | null]>(
      `INSERT INTO heads (network, head_block, checked_at, synced_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (network) DO UPDATE SET head_block = excluded.head_block, checked_at = excluded.checked_at,
         synced_at = excluded.synced_at`,
    ),
    getHead: db.prepare<[string], HeadRow>(
      "SELECT head_block, checked_at, synced_at FROM heads WHERE network = ?",
    ),
  };
}

/** The SQLite tables of where a network stands: its checkpoint and head (its blocks: createSqliteTables). */
export function createSqliteCursor(db: Database.Database): {
  steps: Pick<WriteHandlers<NetworkName>, "setCheckpoint">;
  methods: Pick<Store, "getCheckpoint" | "saveHead" | "getHead">;
} {
  // Prepared on first use, after migrate() created the tables.
  let statements: ReturnType<typeof prepareCursorStatements> | undefined;
  const s = () => (statements ??= prepareCursorStatements(db));
  return {
    steps: {
      setCheckpoint(network, { checkpoint }) {
        s().upsertCheckpoint.run(network, checkpoint.blockNumber, checkpoint.blockHash);
      },
    },
    methods: {
      async getCheckpoint(network) {
        const row = s().getCheckpoint.get(network);
        return row === undefined
          ? undefined
          : { blockNumber: row.block_number, blockHash: row.block_hash as Hash };
      },
      async saveHead(network, head) {
        s().upsertHead.run(network, head.headBlock, head.checkedAt, head.syncedAt ?? null);
      },
      async getHead(network) {
        const row = s().getHead.get(network);
        return row === undefined ? undefined : decodeHead(row);
      },
    },
  };
}
