import { type Hex, keccak256, type Log, toEventSelector } from "viem";
import {
  pairBurnEventAbi,
  pairMintEventAbi,
  pancakeV3SwapEventAbi,
  swapEventAbi,
  syncEventAbi,
  v3PoolEventsAbi,
  wrappedNativeEventsAbi,
} from "../chain/abis.js";
import type { DexKind } from "../config/types.js";
import type { Address, Hash } from "../domain/types.js";

/** Where a log sits: its block, transaction and position. */
export interface LogPosition {
  blockNumber: bigint;
  logIndex: number;
  txHash: Hash;
  txIndex: number;
}

/** What a V3 Swap log says of the pool after it. */
interface V3SwapState {
  sqrtPriceX96: bigint;
  liquidity: bigint;
  tick: number;
}

/** A V3 Mint or Burn: liquidity added to or removed from a position. */
interface V3LiquidityChange {
  pool: Address;
  /** The position's owner (for a mint through a position manager, the manager). */
  owner: Address;
  tickLower: number;
  tickUpper: number;
  /** Liquidity added (mint) or removed (burn). */
  amount: bigint;
  amount0: bigint;
  amount1: bigint;
}

/** A decoded log the indexer uses, in chain order. */
export type RangeEvent =
  | (LogPosition & {
      kind: "swap";
      pair: Address;
      amount0In: bigint;
      amount1In: bigint;
      amount0Out: bigint;
      amount1Out: bigint;
      to: Address;
      /** Set on a V3 pool's swap: the pool's price and liquidity after it. */
      v3?: V3SwapState;
    })
  | (LogPosition & { kind: "sync"; pair: Address; reserve0: bigint; reserve1: bigint })
  /** `amount` of the wrapped native coin was minted to `account` (a router wrapping what the trader paid). */
  | (LogPosition & { kind: "deposit"; account: Address; amount: bigint })
  /** `amount` of the wrapped native coin was burnt by `account` (a router unwrapping for the trader). */
  | (LogPosition & { kind: "withdrawal"; account: Address; amount: bigint })
  /** A V2 pair's Mint or Burn: `owner` is the Mint's caller (usually a router) or the Burn's recipient. */
  | (LogPosition & {
      kind: "v2mint" | "v2burn";
      pool: Address;
      owner: Address;
      amount0: bigint;
      amount1: bigint;
    })
  /** A V3 pool's first price. */
  | (LogPosition & { kind: "v3init"; pair: Address; sqrtPriceX96: bigint; tick: number })
  /**
   * A V3 pool's Collect or CollectProtocol (tokens paid out: negative amounts) or Flash (fees paid
   * in: positive): logs that move the pool's token balances but not its price or liquidity.
   */
  | (LogPosition & { kind: "v3balance"; pool: Address; amount0: bigint; amount1: bigint })
  | (LogPosition & V3LiquidityChange & { kind: "v3mint" | "v3burn" });

const SWAP = toEventSelector(swapEventAbi);
const SYNC = toEventSelector(syncEventAbi);
const V2_MINT = toEventSelector(pairMintEventAbi);
const V2_BURN = toEventSelector(pairBurnEventAbi);
const DEPOSIT = toEventSelector(wrappedNativeEventsAbi[0]);
const WITHDRAWAL = toEventSelector(wrappedNativeEventsAbi[1]);
const V3_SWAP = toEventSelector(v3PoolEventsAbi[0]);
const V3_INITIALIZE = toEventSelector(v3PoolEventsAbi[1]);
const V3_MINT = toEventSelector(v3PoolEventsAbi[2]);
const V3_BURN = toEventSelector(v3PoolEventsAbi[3]);
const V3_COLLECT = toEventSelector(v3PoolEventsAbi[4]);
const V3_COLLECT_PROTOCOL = toEventSelector(v3PoolEventsAbi[5]);
const V3_FLASH = toEventSelector(v3PoolEventsAbi[6]);
const PANCAKE_V3_SWAP = toEventSelector(pancakeV3SwapEventAbi);

/** Topics of the events wrapped-coin logs are read for. */
const WRAPPED_TOPICS: readonly Hex[] = [DEPOSIT, WITHDRAWAL];
/** Topics a pool of any configured kind logs: its emitter must be checked against the factories. */
const V2_POOL_TOPICS: readonly Hex[] = [SWAP, SYNC, V2_MINT, V2_BURN];
// Collect, CollectProtocol and Flash move a pool's token balances only: read so that the balances
// (TVL, DEX Screener reserves) are kept exactly from the logs with no balanceOf call per block.
const V3_POOL_TOPICS: readonly Hex[] = [
  V3_INITIALIZE,
  V3_MINT,
  V3_BURN,
  V3_COLLECT,
  V3_COLLECT_PROTOCOL,
  V3_FLASH,
];

/** Which family of pools a log's topic belongs to (undefined: a wrapped-coin log or another event). */
export function poolFamilyOf(topic0: string | undefined): "v2" | "v3" | undefined {
  if (topic0 === SWAP || topic0 === SYNC || topic0 === V2_MINT || topic0 === V2_BURN) return "v2";
  if (topic0 === V3_SWAP || topic0 === PANCAKE_V3_SWAP || topic0 === V3_INITIALIZE) return "v3";
  if (topic0 === V3_MINT || topic0 === V3_BURN) return "v3";
  if (topic0 === V3_COLLECT || topic0 === V3_COLLECT_PROTOCOL || topic0 === V3_FLASH) return "v3";
  return undefined;
}

/** The three bloom bits (0..2047) a topic or an address sets: computed once for a value asked often. */
export function bloomBits(value: Hex): readonly number[] {
  const hash = keccak256(value);
  return [0, 1, 2].map((i) => Number.parseInt(hash.slice(2 + i * 4, 6 + i * 4), 16) & 2047);
}

/** Whether a logs bloom has all of `bits` set (false when there is no bloom to tell). */
export function bloomHasBits(bloom: string | undefined, bits: readonly number[]): boolean {
  if (bloom === undefined || bloom.length !== 2 + 512) return false;
  for (const bit of bits) {
    const byte = 255 - Math.floor(bit / 8);
    const value = Number.parseInt(bloom.slice(2 + byte * 2, 4 + byte * 2), 16);
    if ((value & (1 << (bit % 8))) === 0) return false;
  }
  return true;
}

/** The events one network's ranges read, by the kinds of its configured DEXes. */
export interface RangeEventSet {
  /** The topic0 OR-list of a range's eth_getLogs: the pools' and the wrapped coin's events. */
  readonly topics: readonly Hex[];
  /** Topics a pool's trades and state changes log (a bloom naming one may hold a trade). */
  readonly poolTopics: readonly Hex[];
  /** Whether a logs bloom names one of the pools' trade or state topics (of any contract). */
  bloomNamesPoolLogs(bloom: string | undefined): boolean;
  /** Whether V3 pools' events are read (a V3 DEX is configured). */
  readonly hasV3: boolean;
}

/**
 * The event set of a network whose DEXes are of `kinds`: V2 pairs' Swap and Sync, V3 pools'
 * Swap (Uniswap's or PancakeSwap's layout), Initialize, Mint, Burn, Collect, CollectProtocol and
 * Flash, and the wrapped coin's
 * Deposit and Withdrawal. A network without V3 DEXes never asks for V3 logs (on a real chain,
 * thousands of unconfigured pools log them).
 */
export function createRangeEventSet(kinds: Iterable<DexKind>): RangeEventSet {
  const set = new Set(kinds);
  const poolTopics: Hex[] = [];
  if (set.has("uniswap-v2")) poolTopics.push(...V2_POOL_TOPICS);
  if (set.has("uniswap-v3")) poolTopics.push(V3_SWAP);
  if (set.has("pancakeswap-v3")) poolTopics.push(PANCAKE_V3_SWAP);
  if (set.has("uniswap-v3") || set.has("pancakeswap-v3")) poolTopics.push(...V3_POOL_TOPICS);
  // Swaps and state changes; a bloom naming a swap or a sync may hold a trade or a price.
  const bits = poolTopics.map(bloomBits);
  return {
    topics: [...poolTopics, ...WRAPPED_TOPICS],
    poolTopics,
    bloomNamesPoolLogs: (bloom) => bits.some((b) => bloomHasBits(bloom, b)),
    hasV3: set.has("uniswap-v3") || set.has("pancakeswap-v3"),
  };
}

/** The event set of a network of V2 DEXes only (what tests and tools without a configuration use). */
export const V2_EVENT_SET = createRangeEventSet(["uniswap-v2"]);

// The events have fixed layouts: reading their words directly costs a fraction of a generic ABI
// decoder, and the hot path of a backfill is decoding. A log whose layout does not match (another
// contract's event with the same signature but other indexed fields) is skipped, as viem's
// non-strict parsing would.
function word(data: Hex, i: number): bigint {
  return BigInt(`0x${data.slice(2 + 64 * i, 66 + 64 * i)}`);
}

const TWO_255 = 1n << 255n;
const TWO_256 = 1n << 256n;

function signedWord(data: Hex, i: number): bigint {
  const value = word(data, i);
  return value >= TWO_255 ? value - TWO_256 : value;
}

// An int24 topic or word: ABI-encoded sign-extended to 256 bits.
function int24Of(value: bigint): number {
  return Number(value >= TWO_255 ? value - TWO_256 : value);
}

/** The address in an indexed topic (lowercase), or undefined when the topic is not one. */
function topicAddress(topic: Hex | undefined): Address | undefined {
  return topic === undefined || topic.length !== 66 ? undefined : lower<Address>(`0x${topic.slice(26)}`);
}

const lower = <T extends string>(value: string): T => value.toLowerCase() as T;

/**
 * Decodes a log of an accepted pool into a range event; undefined for another event or a log
 * whose layout does not match. A V3 Swap's signed amounts (positive: the pool took it in) become
 * in and out amounts, so V2 and V3 swaps chain into trades by one rule.
 */
export function decodePoolLog(item: Log, at: LogPosition, pair: Address): RangeEvent | undefined {
  const topic0 = item.topics[0]?.toLowerCase();
  const { data, topics } = item;
  if (topic0 === SYNC && topics.length === 1 && data.length === 2 + 128) {
    return { ...at, kind: "sync", pair, reserve0: word(data, 0), reserve1: word(data, 1) };
  }
  if (topic0 === SWAP && topics.length === 3 && data.length === 2 + 256) {
    const to = topicAddress(topics[2]);
    if (to === undefined) return undefined;
    return {
      ...at,
      kind: "swap",
      pair,
      amount0In: word(data, 0),
      amount1In: word(data, 1),
      amount0Out: word(data, 2),
      amount1Out: word(data, 3),
      to,
    };
  }
  const v3Swap =
    (topic0 === V3_SWAP && data.length === 2 + 64 * 5) ||
    (topic0 === PANCAKE_V3_SWAP && data.length === 2 + 64 * 7);
  if (v3Swap && topics.length === 3) {
    const to = topicAddress(topics[2]);
    if (to === undefined) return undefined;
    const amount0 = signedWord(data, 0);
    const amount1 = signedWord(data, 1);
    return {
      ...at,
      kind: "swap",
      pair,
      amount0In: amount0 > 0n ? amount0 : 0n,
      amount1In: amount1 > 0n ? amount1 : 0n,
      amount0Out: amount0 < 0n ? -amount0 : 0n,
      amount1Out: amount1 < 0n ? -amount1 : 0n,
      to,
      v3: { sqrtPriceX96: word(data, 2), liquidity: word(data, 3), tick: int24Of(word(data, 4)) },
    };
  }
  if ((topic0 === V2_MINT && topics.length === 2) || (topic0 === V2_BURN && topics.length === 3)) {
    if (data.length !== 2 + 128) return undefined;
    const owner = topicAddress(topic0 === V2_MINT ? topics[1] : topics[2]);
    if (owner === undefined) return undefined;
    const kind = topic0 === V2_MINT ? "v2mint" : "v2burn";
    return { ...at, kind, pool: pair, owner, amount0: word(data, 0), amount1: word(data, 1) };
  }
  if (topic0 === V3_INITIALIZE && topics.length === 1 && data.length === 2 + 128) {
    return { ...at, kind: "v3init", pair, sqrtPriceX96: word(data, 0), tick: int24Of(word(data, 1)) };
  }
  return decodeV3LiquidityLog(item, at, pair, topic0) ?? decodeV3BalanceLog(item, at, pair, topic0);
}

// Collect(address indexed owner, address recipient, int24 indexed tickLower, int24 indexed
// tickUpper, uint128 amount0, uint128 amount1); CollectProtocol(address indexed sender, address
// indexed recipient, uint128 amount0, uint128 amount1); Flash(address indexed sender, address
// indexed recipient, uint256 amount0, uint256 amount1, uint256 paid0, uint256 paid1): a flash
// loan is repaid with its fee in the same call, so the pool keeps paid0/paid1 more than before.
function decodeV3BalanceLog(
  item: Log,
  at: LogPosition,
  pool: Address,
  topic0: string | undefined,
): RangeEvent | undefined {
  const { data, topics } = item;
  if (topic0 === V3_COLLECT && topics.length === 4 && data.length === 2 + 64 * 3) {
    return { ...at, kind: "v3balance", pool, amount0: -word(data, 1), amount1: -word(data, 2) };
  }
  if (topic0 === V3_COLLECT_PROTOCOL && topics.length === 3 && data.length === 2 + 64 * 2) {
    return { ...at, kind: "v3balance", pool, amount0: -word(data, 0), amount1: -word(data, 1) };
  }
  if (topic0 === V3_FLASH && topics.length === 3 && data.length === 2 + 64 * 4) {
    return { ...at, kind: "v3balance", pool, amount0: word(data, 2), amount1: word(data, 3) };
  }
  return undefined;
}

// Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper,
// uint128 amount, uint256 amount0, uint256 amount1); Burn has no sender word.
function decodeV3LiquidityLog(
  item: Log,
  at: LogPosition,
  pair: Address,
  topic0: string | undefined,
): RangeEvent | undefined {
  const { data, topics } = item;
  const mint = topic0 === V3_MINT && data.length === 2 + 64 * 4;
  const burn = topic0 === V3_BURN && data.length === 2 + 64 * 3;
  if ((!mint && !burn) || topics.length !== 4) return undefined;
  const owner = topicAddress(topics[1]);
  if (owner === undefined) return undefined;
  const first = mint ? 1 : 0;
  return {
    ...at,
    kind: mint ? "v3mint" : "v3burn",
    pool: pair,
    owner,
    tickLower: int24Of(BigInt(topics[2]!)),
    tickUpper: int24Of(BigInt(topics[3]!)),
    amount: word(data, first),
    amount0: word(data, first + 1),
    amount1: word(data, first + 2),
  };
}

/** The wrapped coin's Deposit or Withdrawal, or undefined for another log. */
export function decodeWrappedLog(item: Log, at: LogPosition): RangeEvent | undefined {
  const topic0 = item.topics[0]?.toLowerCase();
  const account = topicAddress(item.topics[1]);
  if (account === undefined || item.topics.length !== 2 || item.data.length !== 2 + 64) return undefined;
  const amount = word(item.data, 0);
  if (topic0 === DEPOSIT) return { ...at, kind: "deposit", account, amount };
  if (topic0 === WITHDRAWAL) return { ...at, kind: "withdrawal", account, amount };
  return undefined;
}

/** Whether a log is the wrapped coin's Deposit or Withdrawal (by topic). */
export function isWrappedTopic(topic0: string | undefined): boolean {
  return topic0 === DEPOSIT || topic0 === WITHDRAWAL;
}

/** The pool an event belongs to, if any. */
export function eventPool(event: RangeEvent): Address | undefined {
  switch (event.kind) {
    case "swap":
    case "sync":
    case "v3init":
      return event.pair;
    case "v3mint":
    case "v3burn":
    case "v3balance":
    case "v2mint":
    case "v2burn":
      return event.pool;
    default:
      return undefined;
  }
}
