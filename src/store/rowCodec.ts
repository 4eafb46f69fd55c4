import type {
  Address,
  BlockRef,
  Hash,
  LiquidityEvent,
  NetworkName,
  Pair,
  PairReserves,
  Token,
  TokenRef,
  Trade,
  TradeHop,
  TradeMarks,
} from "../domain/types.js";
import { SwapgraphError } from "../errors.js";
import type { CandleKind, CandleRow } from "./buildCandles.js";
import type { DayAggregate, HeadRecord, StoredTrade } from "./types.js";

/** Pools as one text column: addresses joined by commas, in route order ("" for none). */
export function encodePools(pools: readonly Address[]): string {
  return pools.join(",");
}

/** Inverse of `encodePools`. */
function decodePools(text: string): Address[] {
  return text === "" ? [] : (text.split(",") as Address[]);
}

/**
 * TradeMarks as one text column: `priceIn|priceOut|native|hops` (an unpriced side and no native
 * side are empty). Each hop is its direction (1 = token0 in) and `in:out`, where an amount is left
 * out when it follows from the trade: the first hop takes in the trade's amountIn, a hop takes in
 * what the one before sent out, the last hop sends out the trade's amountOut. A plain swap is
 * "1:", so candles cost a trade row some 45 bytes.
 */
export function encodeMarks(trade: Pick<Trade, "amountIn" | "amountOut">, marks: TradeMarks): string {
  const hops = marks.hops.map((hop, i) => {
    const expectedIn = i === 0 ? trade.amountIn : marks.hops[i - 1]!.amountOut;
    const last = i === marks.hops.length - 1;
    const amountIn = hop.amountIn === expectedIn ? "" : hop.amountIn.toString();
    const amountOut = last && hop.amountOut === trade.amountOut ? "" : hop.amountOut.toString();
    return `${hop.zeroForOne ? 1 : 0}${amountIn}:${amountOut}`;
  });
  return [marks.priceInUsd ?? "", marks.priceOutUsd ?? "", marks.native ?? "", hops.join(";")].join("|");
}

/** Inverse of `encodeMarks`. */
function decodeMarks(text: string, trade: Pick<Trade, "amountIn" | "amountOut">): TradeMarks {
  const [priceIn = "", priceOut = "", native = "", hopText = ""] = text.split("|");
  const hops: TradeHop[] = [];
  const parts = hopText === "" ? [] : hopText.split(";");
  parts.forEach((part, i) => {
    const [amountIn = "", amountOut = ""] = part.slice(1).split(":");
    hops.push({
      zeroForOne: part[0] === "1",
      amountIn: amountIn !== "" ? BigInt(amountIn) : i === 0 ? trade.amountIn : hops[i - 1]!.amountOut,
      amountOut: amountOut !== "" ? BigInt(amountOut) : trade.amountOut,
    });
  });
  return {
    priceInUsd: priceIn === "" ? undefined : BigInt(priceIn),
    priceOutUsd: priceOut === "" ? undefined : BigInt(priceOut),
    native: native === "" ? undefined : (native as Address),
    hops,
  };
}

/**
 * Keeps the last item of each key, in first-seen order. Upserts need it: PostgreSQL refuses an
 * `ON CONFLICT DO UPDATE` that touches one row twice, and SQLite would apply the last one anyway.
 */
export function lastByKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) byKey.set(key(item), item);
  return [...byKey.values()];
}

/** A liquidity event filed under another network is an indexer bug, as a trade is. */
export function assertLiquidityEventNetworks(network: NetworkName, events: readonly LiquidityEvent[]): void {
  for (const event of events) {
    if (event.network !== network) {
      throw new SwapgraphError("INTERNAL", "liquidity event committed under another network", {
        details: `event ${event.txHash}:${event.logIndex} is on ${event.network}, the batch is for ${network}`,
      });
    }
  }
}

/** A trade filed under another network is an indexer bug: refuse the batch before writing anything. */
export function assertTradeNetworks(network: NetworkName, trades: readonly Trade[]): void {
  for (const trade of trades) {
    if (trade.network !== network) {
      throw new SwapgraphError("INTERNAL", "trade committed under another network", {
        details: `trade ${trade.txHash} is on ${trade.network}, the batch is for ${network}`,
      });
    }
  }
}

// Rows as the drivers return them: better-sqlite3 (safeIntegers) gives INTEGER as bigint,
// postgres.js gives int8 and numeric as strings and int4 as number. Amounts are decimal text in
// both. BigInt() and Number() read all three, so one decoder per table serves both stores;
// values past 2^53 only ever go through BigInt().
export type Int = bigint | number | string;

/** The columns an event row (pool_events, liquidity_events) places its event by. */
export interface EventPositionRow {
  network: string;
  tx_hash: string;
  block_number: Int;
  timestamp: Int;
  tx_index: Int;
  log_index: Int;
  pool: string;
}

/** Where an event row's event happened: network, transaction, block, time, positions and pool. */
export function decodeEventPosition(row: EventPositionRow): {
  network: NetworkName;
  txHash: Hash;
  blockNumber: bigint;
  timestamp: number;
  txIndex: number;
  logIndex: number;
  pool: Address;
} {
  return {
    network: row.network as NetworkName,
    txHash: row.tx_hash as Hash,
    blockNumber: BigInt(row.block_number),
    timestamp: Number(row.timestamp),
    txIndex: Number(row.tx_index),
    logIndex: Number(row.log_index),
    pool: row.pool as Address,
  };
}

export interface TradeRow {
  seq: Int;
  network: string;
  tx_hash: string;
  block_number: Int;
  timestamp: Int;
  tx_index: Int;
  sender: string;
  token_in: string;
  amount_in: string;
  token_out: string;
  amount_out: string;
  volume_usd: string;
  /** boolean in PostgreSQL, 0/1 in SQLite. */
  tracked: boolean | Int;
  pools: string;
  log_index: Int;
  /** Only where a statement reads it (candle recomputes, a pool's trade pages): null before candles existed. */
  marks?: string | null;
}

export interface BlockRow {
  number: Int;
  hash: string;
  parent_hash: string;
  timestamp: Int;
}

export interface PairRow {
  address: string;
  dex: string;
  factory: string;
  token0: string;
  token1: string;
  fee_bps: Int;
  /** Both NULL on a V2 pair (schema version 6). */
  v3_fee: Int | null;
  v3_tick_spacing: Int | null;
  /** The creation log's block, time and transaction; NULL when not found (schema version 9). */
  created_block: Int | null;
  created_timestamp: Int | null;
  created_tx: string | null;
}

export interface ReservesRow {
  pair: string;
  block_number: Int;
  log_index: Int;
  reserve0: string;
  reserve1: string;
}

export interface TokenRow {
  address: string;
  name: string;
  symbol: string;
  decimals: Int;
}

/** The tracked column: boolean in PostgreSQL, 0/1 in SQLite. */
function isTracked(tracked: boolean | Int): boolean {
  if (typeof tracked === "boolean") return tracked;
  return typeof tracked === "bigint" ? tracked !== 0n : BigInt(tracked) !== 0n;
}

/** A trades row as a StoredTrade. */
export function decodeTrade(row: TradeRow): StoredTrade {
  const trade: StoredTrade = {
    seq: BigInt(row.seq),
    network: row.network as NetworkName,
    txHash: row.tx_hash as Hash,
    blockNumber: BigInt(row.block_number),
    timestamp: Number(row.timestamp),
    txIndex: Number(row.tx_index),
    logIndex: Number(row.log_index),
    sender: row.sender as Address,
    tokenIn: row.token_in as TokenRef,
    amountIn: BigInt(row.amount_in),
    tokenOut: row.token_out as TokenRef,
    amountOut: BigInt(row.amount_out),
    volumeUsd: BigInt(row.volume_usd),
    tracked: isTracked(row.tracked),
    pools: decodePools(row.pools),
  };
  if (row.marks !== undefined && row.marks !== null) trade.marks = decodeMarks(row.marks, trade);
  return trade;
}

/**
 * A trades row read as an array of values in TRADE_COLUMNS order (seq, network, tx_hash,
 * block_number, timestamp, tx_index, sender, token_in, amount_in, token_out, amount_out,
 * volume_usd, tracked, pools, log_index) as a StoredTrade. List pages read rows this way: the
 * drivers then make no object with fifteen keys per row, which cost a large list more than
 * anything else the store does.
 */
export function decodeTradeValues(values: readonly unknown[]): StoredTrade {
  const trade = decodeTradeColumns(values);
  // A pool's page reads the marks after the columns (buildTradePageSql).
  const marks = values[15];
  if (typeof marks === "string") trade.marks = decodeMarks(marks, trade);
  return trade;
}

function decodeTradeColumns(values: readonly unknown[]): StoredTrade {
  return {
    seq: BigInt(values[0] as Int),
    network: values[1] as NetworkName,
    txHash: values[2] as Hash,
    blockNumber: BigInt(values[3] as Int),
    timestamp: Number(values[4] as Int),
    txIndex: Number(values[5] as Int),
    logIndex: Number(values[14] as Int),
    sender: values[6] as Address,
    tokenIn: values[7] as TokenRef,
    amountIn: BigInt(values[8] as string),
    tokenOut: values[9] as TokenRef,
    amountOut: BigInt(values[10] as string),
    volumeUsd: BigInt(values[11] as string),
    tracked: isTracked(values[12] as boolean | Int),
    pools: decodePools(values[13] as string),
  };
}

/** A blocks row as a BlockRef. */
export function decodeBlock(row: BlockRow): BlockRef {
  return {
    number: BigInt(row.number),
    hash: row.hash as Hash,
    parentHash: row.parent_hash as Hash,
    timestamp: Number(row.timestamp),
  };
}

/** A pairs row as a Pair. */
export function decodePair(row: PairRow): Pair {
  const pair: Pair = {
    address: row.address as Address,
    dex: row.dex,
    factory: row.factory as Address,
    token0: row.token0 as Address,
    token1: row.token1 as Address,
    feeBps: Number(row.fee_bps),
  };
  if (row.v3_fee !== null && row.v3_tick_spacing !== null) {
    pair.v3 = { fee: Number(row.v3_fee), tickSpacing: Number(row.v3_tick_spacing) };
  }
  if (row.created_block !== null && row.created_timestamp !== null && row.created_tx !== null) {
    pair.created = {
      blockNumber: BigInt(row.created_block),
      timestamp: Number(row.created_timestamp),
      txHash: row.created_tx as Hash,
    };
  }
  return pair;
}

/** A reserves row as PairReserves. */
export function decodeReserves(row: ReservesRow): PairReserves {
  return {
    pair: row.pair as Address,
    blockNumber: BigInt(row.block_number),
    logIndex: Number(row.log_index),
    reserve0: BigInt(row.reserve0),
    reserve1: BigInt(row.reserve1),
  };
}

/** A tokens row as a Token. */
export function decodeToken(row: TokenRow): Token {
  return {
    address: row.address as TokenRef,
    name: row.name,
    symbol: row.symbol,
    decimals: Number(row.decimals),
  };
}

export interface DayAggregateRow {
  day: Int;
  volume_usd: string;
  trade_count: Int;
  untracked_count: Int;
  trader_count: Int;
}

export interface HeadRow {
  head_block: Int;
  checked_at: Int;
  synced_at: Int | null;
}

/** A day_aggregates row as a DayAggregate. */
export function decodeDayAggregate(row: DayAggregateRow): DayAggregate {
  return {
    day: Number(row.day),
    volumeUsd: BigInt(row.volume_usd),
    tradeCount: Number(row.trade_count),
    untrackedCount: Number(row.untracked_count),
    traderCount: Number(row.trader_count),
  };
}

/** A heads row as a HeadRecord. */
export function decodeHead(row: HeadRow): HeadRecord {
  return {
    headBlock: BigInt(row.head_block),
    checkedAt: Number(row.checked_at),
    syncedAt: row.synced_at === null ? undefined : Number(row.synced_at),
  };
}

/** The candles columns after network, in the order of both engines' candle statements. */
export const CANDLE_COLUMNS =
  "kind, subject, width, start, open, high, low, close, volume, quote_volume, trade_count, volume_usd";

export interface CandleDbRow {
  kind: Int;
  subject: string;
  /** The interval in seconds ("interval" is a keyword in PostgreSQL). */
  width: Int;
  start: Int;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string | null;
  volume: string;
  quote_volume: string;
  trade_count: Int;
  volume_usd: string | null;
}

const optionalBigInt = (text: string | null): bigint | undefined =>
  text === null ? undefined : BigInt(text);

/** A candles row as a CandleRow. */
export function decodeCandle(row: CandleDbRow): CandleRow {
  return {
    kind: Number(row.kind) as CandleKind,
    subject: row.subject,
    interval: Number(row.width) as CandleRow["interval"],
    start: Number(row.start),
    open: optionalBigInt(row.open),
    high: optionalBigInt(row.high),
    low: optionalBigInt(row.low),
    close: optionalBigInt(row.close),
    volume: BigInt(row.volume),
    quoteVolume: BigInt(row.quote_volume),
    tradeCount: Number(row.trade_count),
    // A token row from before schema version 5 has its USD value in quote_volume only.
    volumeUsd:
      row.volume_usd === null && Number(row.kind) === 0
        ? BigInt(row.quote_volume)
        : optionalBigInt(row.volume_usd),
  };
}
