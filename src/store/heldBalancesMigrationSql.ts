// Version 9: what listings need of a pool beyond its price. v3_prices gains the pool's token
// balances after the row's event (balance0, balance1: what the pool holds, kept from its events;
// see createV3Tracker). They ride on the price rows, so a rollback (rows above the ancestor go) and
// a prune (the newest row at or below the window start stays) keep them exact with no step of
// their own. Rows written before this version have NULL balances: unknown, never a wrong figure;
// the indexer reads the balances of such a pool at the block before its next event range.
// pairs gains the factory log that created the pool (PairCreated / PoolCreated): its block, that
// block's time and the transaction; NULL when it was not found (see findPairCreations). Like every
// migration it is append only once applied.

/** Migration 9 for SQLite. */
export const HELD_BALANCES_SQLITE = `
ALTER TABLE v3_prices ADD COLUMN balance0 TEXT;
ALTER TABLE v3_prices ADD COLUMN balance1 TEXT;
ALTER TABLE pairs ADD COLUMN created_block INTEGER;
ALTER TABLE pairs ADD COLUMN created_timestamp INTEGER;
ALTER TABLE pairs ADD COLUMN created_tx TEXT;
`;

/** Migration 9 for PostgreSQL. */
export const HELD_BALANCES_POSTGRES = `
ALTER TABLE v3_prices ADD COLUMN balance0 numeric(78, 0);
ALTER TABLE v3_prices ADD COLUMN balance1 numeric(78, 0);
ALTER TABLE pairs ADD COLUMN created_block int8;
ALTER TABLE pairs ADD COLUMN created_timestamp int8;
ALTER TABLE pairs ADD COLUMN created_tx text;
`;
