// Version 7: pool events as listings read them (DEX Screener's swap, join and exit events): one row
// per Swap, Mint or Burn log of an accepted pool, with the transaction's signer and, on a V2 pair,
// the reserves right after the log (the Sync before it in its transaction). Trades cannot give
// these: a trade is a chain of swaps and reserves are kept per block, not per log. Written with
// the range that holds them, rolled back and pruned with the trades; keyed by their position in
// the chain, so a block range is one walk of the primary key. Amounts are decimal TEXT in SQLite
// and NUMERIC(78,0) in PostgreSQL like every amount; a swap's amounts are signed (positive: the
// pool took it in). Like every migration it is append only once applied.

/** Migration 7 for SQLite. */
export const POOL_EVENTS_SQLITE = `
CREATE TABLE pool_events (
  network TEXT NOT NULL,
  block_number INTEGER NOT NULL,
  log_index INTEGER NOT NULL,
  tx_hash TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  tx_index INTEGER NOT NULL,
  pool TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('swap', 'join', 'exit')),
  maker TEXT NOT NULL,
  amount0 TEXT NOT NULL,
  amount1 TEXT NOT NULL,
  reserve0 TEXT,
  reserve1 TEXT,
  PRIMARY KEY (network, block_number, log_index)
) STRICT, WITHOUT ROWID;
CREATE INDEX pool_events_network_timestamp ON pool_events (network, timestamp);
`;

/** Migration 7 for PostgreSQL. */
export const POOL_EVENTS_POSTGRES = `
CREATE TABLE pool_events (
  network text NOT NULL,
  block_number int8 NOT NULL,
  log_index int4 NOT NULL,
  tx_hash text NOT NULL,
  timestamp int8 NOT NULL,
  tx_index int4 NOT NULL,
  pool text NOT NULL,
  type text NOT NULL CHECK (type IN ('swap', 'join', 'exit')),
  maker text NOT NULL,
  amount0 numeric(78, 0) NOT NULL,
  amount1 numeric(78, 0) NOT NULL,
  reserve0 numeric(78, 0),
  reserve1 numeric(78, 0),
  PRIMARY KEY (network, block_number, log_index)
);
CREATE INDEX pool_events_network_timestamp ON pool_events (network, timestamp);
`;
