import type postgres from "postgres";
import type { NetworkName, Trade } from "../../domain/types.js";

/** What every PostgreSQL write step runs in: the write's transaction and network. */
export interface PostgresWrite {
  tx: postgres.TransactionSql;
  network: NetworkName;
  /** The tx_hash array literal of the trades the delete step was given, for the insert to reuse. */
  txHashes?: { trades: readonly Trade[]; literal: string };
}
