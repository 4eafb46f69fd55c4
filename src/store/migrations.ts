/** One schema change, written once per backend; applied in `version` order and recorded in `schema_migrations`. */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

// Amounts, reserves and USD never touch a float column: SQLite keeps them as decimal TEXT in STRICT
// tables (no affinity conversion), PostgreSQL as NUMERIC(78,0), wide enough for 2^256-1.
// Block numbers are 64-bit integers (read with safeIntegers / converted from int8 strings).

const SQLITE_1 = `
CREATE TABLE trades (
  -- AUTOINCREMENT: a seq is never reused after a rollback deletes the newest rows, so tailing replicas miss nothing.
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  network TEXT NOT NULL,
  tx_hash TEXT NOT NULL,
  block_number INTEGER NOT NULL,
  timestamp INTEGER NOT NULL,
  tx_index INTEGER NOT NULL,
  sender TEXT NOT NULL,
  token_in TEXT NOT NULL,
  amount_in TEXT NOT NULL,
  token_out TEXT NOT NULL,
  amount_out TEXT NOT NULL,
  volume_usd TEXT NOT NULL,
  tracked INTEGER NOT NULL,
  pools TEXT NOT NULL,
  UNIQUE (network, tx_hash)
) STRICT;
CREATE INDEX trades_network_timestamp ON trades (network, timestamp);
CREATE INDEX trades_network_block ON trades (network, block_number, tx_index);
CREATE INDEX trades_network_seq ON trades (network, seq);

CREATE TABLE blocks (
  network TEXT NOT NULL,
  number INTEGER NOT NULL,
  hash TEXT NOT NULL,
  parent_hash TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  PRIMARY KEY (network, number)
) STRICT, WITHOUT ROWID;

CREATE TABLE checkpoints (
  network TEXT PRIMARY KEY,
  block_number INTEGER NOT NULL,
  block_hash TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE pairs (
  network TEXT NOT NULL,
  address TEXT NOT NULL,
  dex TEXT NOT NULL,
  factory TEXT NOT NULL,
  token0 TEXT NOT NULL,
  token1 TEXT NOT NULL,
  fee_bps INTEGER NOT NULL,
  PRIMARY KEY (network, address)
) STRICT, WITHOUT ROWID;

CREATE TABLE reserves (
  network TEXT NOT NULL,
  pair TEXT NOT NULL,
  block_number INTEGER NOT NULL,
  log_index INTEGER NOT NULL,
  reserve0 TEXT NOT NULL,
  reserve1 TEXT NOT NULL,
  PRIMARY KEY (network, pair, block_number)
) STRICT, WITHOUT ROWID;
CREATE INDEX reserves_network_block ON reserves (network, block_number);

CREATE TABLE tokens (
  network TEXT NOT NULL,
  address TEXT NOT NULL,
  name TEXT NOT NULL,
  symbol TEXT NOT NULL,
  decimals INTEGER NOT NULL,
  PRIMARY KEY (network, address)
) STRICT, WITHOUT ROWID;

CREATE TABLE rejected_pairs (
  network TEXT NOT NULL,
  address TEXT NOT NULL,
  PRIMARY KEY (network, address)
) STRICT, WITHOUT ROWID;
`;

const POSTGRES_1 = `
CREATE TABLE trades (
  network text NOT NULL,
  tx_hash text NOT NULL,
  -- One sequence for all networks; per network it still grows in commit order (one writer per network).
  seq int8 GENERATED ALWAYS AS IDENTITY,
  block_number int8 NOT NULL,
  timestamp int8 NOT NULL,
  tx_index int4 NOT NULL,
  sender text NOT NULL,
  token_in text NOT NULL,
  amount_in numeric(78, 0) NOT NULL,
  token_out text NOT NULL,
  amount_out numeric(78, 0) NOT NULL,
  volume_usd numeric(78, 0) NOT NULL,
  tracked boolean NOT NULL,
  pools text NOT NULL,
  PRIMARY KEY (network, tx_hash)
);
CREATE INDEX trades_network_timestamp ON trades (network, timestamp);
CREATE INDEX trades_network_block ON trades (network, block_number, tx_index);
CREATE UNIQUE INDEX trades_network_seq ON trades (network, seq);

CREATE TABLE blocks (
  network text NOT NULL,
  number int8 NOT NULL,
  hash text NOT NULL,
  parent_hash text NOT NULL,
  timestamp int8 NOT NULL,
  PRIMARY KEY (network, number)
);

CREATE TABLE checkpoints (
  network text PRIMARY KEY,
  block_number int8 NOT NULL,
  block_hash text NOT NULL
);

CREATE TABLE pairs (
  network text NOT NULL,
  address text NOT NULL,
  dex text NOT NULL,
  factory text NOT NULL,
  token0 text NOT NULL,
  token1 text NOT NULL,
  fee_bps int4 NOT NULL,
  PRIMARY KEY (network, address)
);

CREATE TABLE reserves (
  network text NOT NULL,
  pair text NOT NULL,
  block_number int8 NOT NULL,
  log_index int4 NOT NULL,
  reserve0 numeric(78, 0) NOT NULL,
  reserve1 numeric(78, 0) NOT NULL,
  PRIMARY KEY (network, pair, block_number)
);
CREATE INDEX reserves_network_block ON reserves (network, block_number);

CREATE TABLE tokens (
  network text NOT NULL,
  address text NOT NULL,
  name text NOT NULL,
  symbol text NOT NULL,
  decimals int4 NOT NULL,
  PRIMARY KEY (network, address)
);

CREATE TABLE rejected_pairs (
  network text NOT NULL,
  address text NOT NULL,
  PRIMARY KEY (network, address)
);
`;

/** The ordered schema history of both backends. Append only: never edit an applied migration. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "initial", sqlite: SQLITE_1, postgres: POSTGRES_1 },
];
