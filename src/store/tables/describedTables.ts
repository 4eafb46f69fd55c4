import type {
  Address,
  BlockRef,
  LiquidityEvent,
  Pair,
  PairReserves,
  PoolEvent,
  Token,
  V3PoolPrice,
  V3TickLiquidity,
} from "../../domain/types.js";
import type { Column, ColumnType, Table } from "./types.js";

// Every table whose writes are generated (see buildTableSql.ts), described once for both engines.
// The columns and their order are the migrations' (migrations.ts, v3PoolsMigrationSql.ts,
// poolEventsMigrationSql.ts), which stay as they were applied.

const column = <Item>(name: string, type: ColumnType, value: Column<Item>["value"]): Column<Item> => ({
  name,
  type,
  value,
});

/** The position columns every event table starts with, after network. */
function eventPosition<Item extends LiquidityEvent | PoolEvent>(): Column<Item>[] {
  return [
    column("block_number", "int8", (e) => e.blockNumber),
    column("log_index", "int4", (e) => e.logIndex),
    column("tx_hash", "text", (e) => e.txHash),
    column("timestamp", "int8", (e) => e.timestamp),
    column("tx_index", "int4", (e) => e.txIndex),
    column("pool", "text", (e) => e.pool),
    column("type", "text", (e) => e.type),
  ];
}

/** Mints and burns, keyed by position: a re-commit replaces its blocks' events, prune goes by time. */
export const LIQUIDITY_EVENTS: Table<LiquidityEvent> = {
  name: "liquidity_events",
  columns: [
    ...eventPosition<LiquidityEvent>(),
    column("sender", "text", (e) => e.sender),
    column("owner", "text", (e) => e.owner),
    column("amount0", "numeric", (e) => e.amount0),
    column("amount1", "numeric", (e) => e.amount1),
    column("liquidity", "numeric", (e) => e.liquidity),
    column("tick_lower", "int4", (e) => e.tickLower),
    column("tick_upper", "int4", (e) => e.tickUpper),
    column("amount_usd", "numeric", (e) => e.amountUsd),
  ],
  block: "block_number",
  before: "timestamp",
};

/** Swaps, joins and exits with the reserves after each (on a V2 pair), as liquidity events are kept. */
export const POOL_EVENTS: Table<PoolEvent> = {
  name: "pool_events",
  columns: [
    ...eventPosition<PoolEvent>(),
    column("maker", "text", (e) => e.maker),
    column("amount0", "numeric", (e) => e.amount0),
    column("amount1", "numeric", (e) => e.amount1),
    column("reserve0", "numeric", (e) => e.reserves?.reserve0),
    column("reserve1", "numeric", (e) => e.reserves?.reserve1),
  ],
  block: "block_number",
  before: "timestamp",
};

/** Accepted pools. A pair written again without its creation keeps the one it has (found once, it stays). */
export const PAIRS: Table<Pair> = {
  name: "pairs",
  columns: [
    column("address", "text", (p) => p.address),
    column("dex", "text", (p) => p.dex),
    column("factory", "text", (p) => p.factory),
    column("token0", "text", (p) => p.token0),
    column("token1", "text", (p) => p.token1),
    column("fee_bps", "int4", (p) => p.feeBps),
    column("v3_fee", "int4", (p) => p.v3?.fee),
    column("v3_tick_spacing", "int4", (p) => p.v3?.tickSpacing),
    column("created_block", "int8", (p) => p.created?.blockNumber),
    column("created_timestamp", "int8", (p) => p.created?.timestamp),
    column("created_tx", "text", (p) => p.created?.txHash),
  ],
  key: ["address"],
  update: {
    created_block: "coalesce(excluded.created_block, pairs.created_block)",
    created_timestamp: "coalesce(excluded.created_timestamp, pairs.created_timestamp)",
    created_tx: "coalesce(excluded.created_tx, pairs.created_tx)",
  },
};

/** A pair's reserves after its last Sync of a block, read as "the newest at or below a block". */
export const RESERVES: Table<PairReserves> = {
  name: "reserves",
  columns: [
    column("pair", "text", (r) => r.pair),
    column("block_number", "int8", (r) => r.blockNumber),
    column("log_index", "int4", (r) => r.logIndex),
    column("reserve0", "numeric", (r) => r.reserve0),
    column("reserve1", "numeric", (r) => r.reserve1),
  ],
  key: ["pair", "block_number"],
  block: "block_number",
  // A pair's newest row is its current state however old it is: only rows with a newer one go.
  series: { columns: ["pair"], newerAtOrBelow: false },
};

/** A V3 pool's price after its last event of a block, as reserves are to a pair. */
export const V3_PRICES: Table<V3PoolPrice> = {
  name: "v3_prices",
  columns: [
    column("pool", "text", (p) => p.pool),
    column("block_number", "int8", (p) => p.blockNumber),
    column("log_index", "int4", (p) => p.logIndex),
    column("sqrt_price_x96", "numeric", (p) => p.sqrtPriceX96),
    column("tick", "int4", (p) => p.tick),
    column("liquidity", "numeric", (p) => p.liquidity),
    column("balance0", "numeric", (p) => p.balances?.balance0),
    column("balance1", "numeric", (p) => p.balances?.balance1),
  ],
  key: ["pool", "block_number"],
  block: "block_number",
  series: { columns: ["pool"], newerAtOrBelow: true },
};

/** A V3 tick's net and gross liquidity after a block (gross 0: the tick left). */
export const V3_TICKS: Table<V3TickLiquidity> = {
  name: "v3_ticks",
  columns: [
    column("pool", "text", (t) => t.pool),
    column("tick", "int4", (t) => t.tick),
    column("block_number", "int8", (t) => t.blockNumber),
    column("liquidity_net", "numeric", (t) => t.liquidityNet),
    column("liquidity_gross", "numeric", (t) => t.liquidityGross),
  ],
  key: ["pool", "tick", "block_number"],
  block: "block_number",
  series: { columns: ["pool", "tick"], newerAtOrBelow: true, goneWhenZero: "liquidity_gross" },
};

/** Token metadata (written outside ranges: metadata does not reorg). */
export const TOKENS: Table<Token> = {
  name: "tokens",
  columns: [
    column("address", "text", (t) => t.address),
    column("name", "text", (t) => t.name),
    column("symbol", "text", (t) => t.symbol),
    column("decimals", "int4", (t) => t.decimals),
  ],
  key: ["address"],
};

/** Pools found and refused (not of a configured factory), so they are not asked about again. */
export const REJECTED_PAIRS: Table<Address> = {
  name: "rejected_pairs",
  columns: [column("address", "text", (address) => address)],
  key: ["address"],
};

/** The blocks kept for reorg detection; rollback and prune go by their number. */
export const BLOCKS: Table<BlockRef> = {
  name: "blocks",
  columns: [
    column("number", "int8", (b) => b.number),
    column("hash", "text", (b) => b.hash),
    column("parent_hash", "text", (b) => b.parentHash),
    column("timestamp", "int8", (b) => b.timestamp),
  ],
  key: ["number"],
  block: "number",
  before: "number",
};
