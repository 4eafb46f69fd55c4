// Version 6: concentrated-liquidity (V3) pools and liquidity events. Kept out of migrations.ts so
// that file stays readable; like every migration it is append only once applied.
//
// pairs gains the pool's spec (fee in pips, tick spacing): both NULL on a V2 pair, so existing
// rows read exactly as before. v3_prices is to a V3 pool what reserves is to a pair: one row per
// (pool, block) holding the price after the pool's last event in that block. v3_ticks holds, per
// (pool, tick, block), the tick's net and gross liquidity after that block (gross 0: the tick
// left). Both are read as "the newest row at or below a block", so a rollback only deletes the
// rows above the ancestor and the state before it is back exactly. liquidity_events are keyed by
// their position in the chain; pages walk the primary key, a pool's events its own index, and
// the time index turns a time window into a block range. int128/uint128/uint160 values are
// decimal TEXT in SQLite and NUMERIC(78,0) in PostgreSQL like every amount (liquidity_net may be
// negative: both keep the sign).

/** Migration 6 for SQLite. */
export const V3_POOLS_SQLITE = `
ALTER TABLE pairs ADD COLUMN v3_fee INTEGER;
ALTER TABLE pairs ADD COLUMN v3_tick_spacing INTEGER;

CREATE TABLE v3_prices (
  network TEXT NOT NULL,
  pool TEXT NOT NULL,
  block_number INTEGER NOT NULL,
  log_index INTEGER NOT NULL,
  sqrt_price_x96 TEXT NOT NULL,
  tick INTEGER NOT NULL,
  liquidity TEXT NOT NULL,
  PRIMARY KEY (network, pool, block_number)
) STRICT, WITHOUT ROWID;
CREATE INDEX v3_prices_network_block ON v3_prices (network, block_number);

CREATE TABLE v3_ticks (
  network TEXT NOT NULL,
  pool TEXT NOT NULL,
  tick INTEGER NOT NULL,
  block_number INTEGER NOT NULL,
  liquidity_net TEXT NOT NULL,
  liquidity_gross TEXT NOT NULL,
  PRIMARY KEY (network, pool, tick, block_number)
) STRICT, WITHOUT ROWID;
CREATE INDEX v3_ticks_network_block ON v3_ticks (network, block_number);

CREATE TABLE liquidity_events (
  network TEXT NOT NULL,
  block_number INTEGER NOT NULL,
  log_index INTEGER NOT NULL,
  tx_hash TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  tx_index INTEGER NOT NULL,
  pool TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('mint', 'burn')),
  sender TEXT NOT NULL,
  owner TEXT NOT NULL,
  amount0 TEXT NOT NULL,
  amount1 TEXT NOT NULL,
  liquidity TEXT,
  tick_lower INTEGER,
  tick_upper INTEGER,
  amount_usd TEXT NOT NULL,
  PRIMARY KEY (network, block_number, log_index)
) STRICT, WITHOUT ROWID;
CREATE INDEX liquidity_events_network_pool ON liquidity_events (network, pool, block_number, log_index);
CREATE INDEX liquidity_events_network_timestamp ON liquidity_events (network, timestamp, block_number);
`;

/** Migration 6 for PostgreSQL. */
export const V3_POOLS_POSTGRES = `
ALTER TABLE pairs ADD COLUMN v3_fee int4;
ALTER TABLE pairs ADD COLUMN v3_tick_spacing int4;

CREATE TABLE v3_prices (
  network text NOT NULL,
  pool text NOT NULL,
  block_number int8 NOT NULL,
  log_index int4 NOT NULL,
  sqrt_price_x96 numeric(78, 0) NOT NULL,
  tick int4 NOT NULL,
  liquidity numeric(78, 0) NOT NULL,
  PRIMARY KEY (network, pool, block_number)
);
CREATE INDEX v3_prices_network_block ON v3_prices (network, block_number);

CREATE TABLE v3_ticks (
  network text NOT NULL,
  pool text NOT NULL,
  tick int4 NOT NULL,
  block_number int8 NOT NULL,
  liquidity_net numeric(78, 0) NOT NULL,
  liquidity_gross numeric(78, 0) NOT NULL,
  PRIMARY KEY (network, pool, tick, block_number)
);
CREATE INDEX v3_ticks_network_block ON v3_ticks (network, block_number);

CREATE TABLE liquidity_events (
  network text NOT NULL,
  block_number int8 NOT NULL,
  log_index int4 NOT NULL,
  tx_hash text NOT NULL,
  timestamp int8 NOT NULL,
  tx_index int4 NOT NULL,
  pool text NOT NULL,
  type text NOT NULL CHECK (type IN ('mint', 'burn')),
  sender text NOT NULL,
  owner text NOT NULL,
  amount0 numeric(78, 0) NOT NULL,
  amount1 numeric(78, 0) NOT NULL,
  liquidity numeric(78, 0),
  tick_lower int4,
  tick_upper int4,
  amount_usd numeric(78, 0) NOT NULL,
  PRIMARY KEY (network, block_number, log_index)
);
CREATE INDEX liquidity_events_network_pool ON liquidity_events (network, pool, block_number, log_index);
CREATE INDEX liquidity_events_network_timestamp ON liquidity_events (network, timestamp, block_number);
`;
