import type Database from "better-sqlite3";
import { HELD_BALANCES_POSTGRES, HELD_BALANCES_SQLITE } from "./heldBalancesMigrationSql.js";
import { POOL_EVENTS_POSTGRES, POOL_EVENTS_SQLITE } from "./poolEventsMigrationSql.js";
import { backfillSqliteDayVolumes } from "./sqlite/backfillSqliteDayVolumes.js";
import { TRADE_POOLS_POSTGRES, TRADE_POOLS_SQLITE } from "./tradePoolsMigrationSql.js";
import { V3_POOLS_POSTGRES, V3_POOLS_SQLITE } from "./v3PoolsMigrationSql.js";

/** One schema change, written once per backend; applied in `version` order and recorded in `schema_migrations`. */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
  /** Work SQLite cannot do exactly in SQL, run after `sqlite` in the same transaction. */
  sqliteAfter?: (db: Database.Database) => void;
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

// Version 2: the store becomes the source of truth for lists and per-day aggregates.
// day = floor(timestamp / 86,400); integer division equals floor because timestamps are positive.
// day_traders keeps a trade count per (day, sender) so that removing trades (re-commit, rollback)
// can tell exactly when a sender leaves a day. Rows never hold 0 trades: they are deleted instead.
// The sender and token indexes end in (block_number, tx_index) so filtered pages are keyset scans.

const SQLITE_2 = `
CREATE TABLE day_aggregates (
  network TEXT NOT NULL,
  day INTEGER NOT NULL,
  volume_usd TEXT NOT NULL,
  trade_count INTEGER NOT NULL,
  untracked_count INTEGER NOT NULL,
  trader_count INTEGER NOT NULL,
  PRIMARY KEY (network, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE day_traders (
  network TEXT NOT NULL,
  day INTEGER NOT NULL,
  sender TEXT NOT NULL,
  trades INTEGER NOT NULL,
  PRIMARY KEY (network, day, sender)
) STRICT, WITHOUT ROWID;

CREATE TABLE heads (
  network TEXT PRIMARY KEY,
  head_block INTEGER NOT NULL,
  checked_at INTEGER NOT NULL,
  synced_at INTEGER
) STRICT, WITHOUT ROWID;

CREATE INDEX trades_network_sender ON trades (network, sender, block_number, tx_index);
CREATE INDEX trades_network_token_in ON trades (network, token_in, block_number, tx_index);
CREATE INDEX trades_network_token_out ON trades (network, token_out, block_number, tx_index);

INSERT INTO day_traders (network, day, sender, trades)
  SELECT network, timestamp / 86400, sender, count(*) FROM trades GROUP BY 1, 2, 3;
-- SQLite cannot add decimal TEXT exactly: volumes start at '0' and sqliteAfter sums them with bigint.
INSERT INTO day_aggregates (network, day, volume_usd, trade_count, untracked_count, trader_count)
  SELECT t.network, t.day, '0', t.trades, t.untracked, c.traders
  FROM (SELECT network, timestamp / 86400 AS day, count(*) AS trades, sum(tracked = 0) AS untracked
        FROM trades GROUP BY 1, 2) AS t
  JOIN (SELECT network, day, count(*) AS traders FROM day_traders GROUP BY 1, 2) AS c
    ON c.network = t.network AND c.day = t.day;
`;

const POSTGRES_2 = `
CREATE TABLE day_aggregates (
  network text NOT NULL,
  -- int8 like timestamp: any stored timestamp has a day.
  day int8 NOT NULL,
  volume_usd numeric(78, 0) NOT NULL,
  trade_count int8 NOT NULL,
  untracked_count int8 NOT NULL,
  trader_count int8 NOT NULL,
  PRIMARY KEY (network, day)
);

CREATE TABLE day_traders (
  network text NOT NULL,
  day int8 NOT NULL,
  sender text NOT NULL,
  trades int4 NOT NULL,
  PRIMARY KEY (network, day, sender)
);

CREATE TABLE heads (
  network text PRIMARY KEY,
  head_block int8 NOT NULL,
  checked_at int8 NOT NULL,
  synced_at int8
);

CREATE INDEX trades_network_sender ON trades (network, sender, block_number, tx_index);
CREATE INDEX trades_network_token_in ON trades (network, token_in, block_number, tx_index);
CREATE INDEX trades_network_token_out ON trades (network, token_out, block_number, tx_index);

INSERT INTO day_traders (network, day, sender, trades)
  SELECT network, timestamp / 86400, sender, count(*) FROM trades GROUP BY 1, 2, 3;
INSERT INTO day_aggregates (network, day, volume_usd, trade_count, untracked_count, trader_count)
  SELECT t.network, t.day, t.volume_usd, t.trades, t.untracked, c.traders
  FROM (SELECT network, timestamp / 86400 AS day, sum(volume_usd) AS volume_usd,
          count(*) AS trades, count(*) FILTER (WHERE NOT tracked) AS untracked
        FROM trades GROUP BY 1, 2) AS t
  JOIN (SELECT network, day, count(*) AS traders FROM day_traders GROUP BY 1, 2) AS c
    USING (network, day);
`;

// Version 3: a transaction can hold several trades (an aggregator's independent swaps), so a trade
// is identified by (network, tx_hash, log_index), log_index being its first Swap log's position in
// the block. Rows from before have one trade per transaction and get log_index 0. The keyset
// indexes end in log_index so that pages stay unique when a page ends inside a transaction.
// SQLite cannot drop a table constraint: the table is rebuilt, seq values and the AUTOINCREMENT
// high-water mark kept (replicas tail by seq and must never see one reused).

const SQLITE_3 = `
CREATE TABLE trades_v3 (
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
  log_index INTEGER NOT NULL,
  UNIQUE (network, tx_hash, log_index)
) STRICT;
INSERT INTO trades_v3 (seq, network, tx_hash, block_number, timestamp, tx_index, sender, token_in, amount_in,
    token_out, amount_out, volume_usd, tracked, pools, log_index)
  SELECT seq, network, tx_hash, block_number, timestamp, tx_index, sender, token_in, amount_in,
    token_out, amount_out, volume_usd, tracked, pools, 0 FROM trades;
DELETE FROM sqlite_sequence WHERE name = 'trades_v3';
INSERT INTO sqlite_sequence (name, seq) SELECT 'trades_v3', seq FROM sqlite_sequence WHERE name = 'trades';
DROP TABLE trades;
ALTER TABLE trades_v3 RENAME TO trades;
CREATE INDEX trades_network_timestamp ON trades (network, timestamp);
CREATE INDEX trades_network_block ON trades (network, block_number, tx_index, log_index);
CREATE INDEX trades_network_seq ON trades (network, seq);
CREATE INDEX trades_network_sender ON trades (network, sender, block_number, tx_index, log_index);
CREATE INDEX trades_network_token_in ON trades (network, token_in, block_number, tx_index, log_index);
CREATE INDEX trades_network_token_out ON trades (network, token_out, block_number, tx_index, log_index);
`;

const POSTGRES_3 = `
ALTER TABLE trades ADD COLUMN log_index int4 NOT NULL DEFAULT 0;
ALTER TABLE trades ALTER COLUMN log_index DROP DEFAULT;
ALTER TABLE trades DROP CONSTRAINT trades_pkey;
ALTER TABLE trades ADD PRIMARY KEY (network, tx_hash, log_index);
DROP INDEX trades_network_block;
DROP INDEX trades_network_sender;
DROP INDEX trades_network_token_in;
DROP INDEX trades_network_token_out;
CREATE INDEX trades_network_block ON trades (network, block_number, tx_index, log_index);
CREATE INDEX trades_network_sender ON trades (network, sender, block_number, tx_index, log_index);
CREATE INDEX trades_network_token_in ON trades (network, token_in, block_number, tx_index, log_index);
CREATE INDEX trades_network_token_out ON trades (network, token_out, block_number, tx_index, log_index);
`;

// Version 4: candles (see buildCandles.ts), maintained with the trades in the same transactions.
// Each trade row keeps what its candles need (marks: side prices, native stand-in, per-pool
// amounts) so that a rollback or re-commit can rebuild the buckets it touched from the trades that
// remain. One table for both series kinds (0 token, 1 pool); the width is the interval in seconds.
// Trades stored before have no marks and add nothing: candles begin with this version.
// candles_network_day serves prune (whole days go). It indexes the day, not the start: an index on
// start looked as good as the primary key to PostgreSQL's planner for a bucket lookup on a young
// table without statistics, and scanned every series' rows of that start instead.

const SQLITE_4 = `
ALTER TABLE trades ADD COLUMN marks TEXT;
CREATE TABLE candles (
  network TEXT NOT NULL,
  kind INTEGER NOT NULL,
  subject TEXT NOT NULL,
  width INTEGER NOT NULL,
  start INTEGER NOT NULL,
  open TEXT,
  high TEXT,
  low TEXT,
  close TEXT,
  volume TEXT NOT NULL,
  quote_volume TEXT NOT NULL,
  trade_count INTEGER NOT NULL,
  PRIMARY KEY (network, kind, subject, width, start)
) STRICT, WITHOUT ROWID;
CREATE INDEX candles_network_day ON candles (network, (start / 86400));
`;

const POSTGRES_4 = `
ALTER TABLE trades ADD COLUMN marks text;
CREATE TABLE candles (
  network text NOT NULL,
  kind int2 NOT NULL,
  subject text NOT NULL,
  width int4 NOT NULL,
  start int8 NOT NULL,
  -- Pool prices reach 2^112 x 10^36 (about 5e69): within numeric(78, 0).
  open numeric(78, 0),
  high numeric(78, 0),
  low numeric(78, 0),
  close numeric(78, 0),
  volume numeric(78, 0) NOT NULL,
  quote_volume numeric(78, 0) NOT NULL,
  trade_count int8 NOT NULL,
  PRIMARY KEY (network, kind, subject, width, start)
);
CREATE INDEX candles_network_day ON candles (network, (start / 86400));
`;

// Version 5: each candle keeps the USD value of its trades (volume_usd), so a pool's USD volume
// is the exact sum of what its swaps were worth. Token candles already had it in quote_volume:
// their rows written before read it from there (rowCodec), so no row is rewritten and the
// migration takes no time on a large store. Pool candles written before cannot get it back in SQL
// (the per-pool amounts live in the trades' encoded marks): they stay NULL, "unknown", and every
// sum holding one is unknown too (never a wrong figure) until those buckets leave the window; a
// reorg rebuild makes a bucket exact.

// candles_hourly serves the 24-hour totals of every series of a kind (tokens or pools ordered by
// volume): a range of hourly rows by start, instead of a primary-key lookup per series. Partial:
// only hourly rows (about a sixth of all) pay for it. Its predicate also says subject <> '',
// which only the by-time read states: PostgreSQL otherwise took this index for the per-series
// lookups of a young table too, scanning every hourly row of the window once per series
// (measured: 5.1 s instead of 0.2 s for 20,000 tokens).
const SQLITE_5 = `
ALTER TABLE candles ADD COLUMN volume_usd TEXT;
CREATE INDEX candles_hourly ON candles (network, kind, start) WHERE width = 3600 AND subject <> '';
`;

const POSTGRES_5 = `
ALTER TABLE candles ADD COLUMN volume_usd numeric(78, 0);
CREATE INDEX candles_hourly ON candles (network, kind, start) WHERE width = 3600 AND subject <> '';
`;

/** The ordered schema history of both backends. Append only: never edit an applied migration. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "initial", sqlite: SQLITE_1, postgres: POSTGRES_1 },
  {
    version: 2,
    name: "day aggregates, heads, filtered trade indexes",
    sqlite: SQLITE_2,
    postgres: POSTGRES_2,
    sqliteAfter: backfillSqliteDayVolumes,
  },
  {
    version: 3,
    name: "several trades per transaction: trades keyed by log index",
    sqlite: SQLITE_3,
    postgres: POSTGRES_3,
  },
  {
    version: 4,
    name: "candles: per token (USD) and per pool, 1m to 1d",
    sqlite: SQLITE_4,
    postgres: POSTGRES_4,
  },
  {
    version: 5,
    name: "candles: USD value of each bucket's trades",
    sqlite: SQLITE_5,
    postgres: POSTGRES_5,
  },
  {
    version: 6,
    name: "V3 pools: pool spec, prices, tick liquidity; liquidity events",
    sqlite: V3_POOLS_SQLITE,
    postgres: V3_POOLS_POSTGRES,
  },
  {
    version: 7,
    name: "pool events: swaps, joins and exits with the reserves after each",
    sqlite: POOL_EVENTS_SQLITE,
    postgres: POOL_EVENTS_POSTGRES,
  },
  {
    version: 8,
    name: "trade_pools: trades by pool, in page order",
    sqlite: TRADE_POOLS_SQLITE,
    postgres: TRADE_POOLS_POSTGRES,
  },
  {
    version: 9,
    name: "V3 pools' held token balances; pair creation logs",
    sqlite: HELD_BALANCES_SQLITE,
    postgres: HELD_BALANCES_POSTGRES,
  },
];
