// Version 8: an index of trades by pool. A trade's pools are a comma-separated list (trades.pools),
// which no index can search: a pool's trades were found by walking the window's block range and
// testing every trade's list. trade_pools holds one row per (trade, distinct pool), keyed so that
// one pool's trades in a block range come in the order the trade pages use (block_number,
// tx_index, log_index); seq names the trade (SQLite's rowid of trades, PostgreSQL's
// (network, seq) index). Written, rolled back and pruned with the trades in the same transactions
// (createSqliteTrades, createPostgresTrades). The rows already stored are indexed here; a pool
// listed twice in one trade is indexed once. Like every migration it is append only once applied.

/** Migration 8 for SQLite (a pools list as rows: json_each of the list made a JSON array; addresses need no escaping). */
export const TRADE_POOLS_SQLITE = `
CREATE TABLE trade_pools (
  network TEXT NOT NULL,
  pool TEXT NOT NULL,
  block_number INTEGER NOT NULL,
  tx_index INTEGER NOT NULL,
  log_index INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (network, pool, block_number, tx_index, log_index, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO trade_pools (network, pool, block_number, tx_index, log_index, seq)
  SELECT DISTINCT t.network, p.value, t.block_number, t.tx_index, t.log_index, t.seq
  FROM trades AS t, json_each('["' || replace(t.pools, ',', '","') || '"]') AS p
  WHERE t.pools <> '';
`;

/** Migration 8 for PostgreSQL. */
export const TRADE_POOLS_POSTGRES = `
CREATE TABLE trade_pools (
  network text NOT NULL,
  pool text NOT NULL,
  block_number int8 NOT NULL,
  tx_index int4 NOT NULL,
  log_index int4 NOT NULL,
  seq int8 NOT NULL,
  PRIMARY KEY (network, pool, block_number, tx_index, log_index, seq)
);
INSERT INTO trade_pools (network, pool, block_number, tx_index, log_index, seq)
  SELECT DISTINCT t.network, p.pool, t.block_number, t.tx_index, t.log_index, t.seq
  FROM trades AS t, unnest(string_to_array(t.pools, ',')) AS p(pool);
`;
