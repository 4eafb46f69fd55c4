import { getAddress } from "viem";
import { formatDecimal } from "../../domain/formatDecimal.js";
import type { Address, NetworkName, PoolEvent } from "../../domain/types.js";
import { SwapgraphError } from "../../errors.js";
import type { MarketState } from "../types.js";

/** What a pool event's rendering needs to know of its pool: its tokens' decimals. */
interface PoolDecimals {
  decimals0: number;
  decimals1: number;
}

/** DEX Screener's Block: a number and unix seconds. */
interface DexScreenerBlock {
  blockNumber: number;
  blockTimestamp: number;
}

// The indexer reads up to 50 decimal places of a price; more are ignored (the spec).
const PRICE_DIGITS = 50;

// Pools and makers repeat from event to event: the keccak of each is made once (the cache is
// dropped whole when full, which costs less per hit than keeping an LRU order).
const MAX_CHECKSUMS = 100_000;
let checksums = new Map<Address, Address>();

/** The EIP-55 form of a lowercase address (the spec encourages checksummed ids), cached. */
export function checksummed(address: Address): Address {
  let value = checksums.get(address);
  if (value === undefined) {
    value = getAddress(address) as Address;
    if (checksums.size >= MAX_CHECKSUMS) checksums = new Map();
    checksums.set(address, value);
  }
  return value;
}

const TENS = Array.from({ length: 78 }, (_, i) => 10n ** BigInt(i));
const ten = (exponent: number): bigint => TENS[exponent] ?? 10n ** BigInt(exponent);

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

/**
 * The price of asset0 quoted in asset1 in a swap (the spec's priceNative): the asset1 it paid or
 * took per asset0, both decimalized, truncated to 50 decimal places. Undefined when it would
 * print as 0 (the indexer halts on priceNative=0).
 */
function priceNative(amount0: bigint, amount1: bigint, pool: PoolDecimals): string | undefined {
  const numerator = abs(amount1) * ten(pool.decimals0 + PRICE_DIGITS);
  const denominator = abs(amount0) * ten(pool.decimals1);
  if (denominator === 0n) return undefined;
  const scaled = numerator / denominator;
  return scaled === 0n ? undefined : formatDecimal(scaled, PRICE_DIGITS);
}

/**
 * A pool event in DEX Screener's events format: amounts and reserves decimalized exactly (strings,
 * no rounding), ids checksummed, eventIndex the log's index in its block (it orders the events of
 * a transaction, and with txnIndex it is unique in the block). A swap is one asset in and the other
 * out; a Swap log that is not (both in, or a side of 0) is left out: the indexer halts on it.
 */
function renderPoolEvent(
  event: PoolEvent,
  block: DexScreenerBlock,
  pool: PoolDecimals,
): Record<string, unknown> | undefined {
  const head = {
    block,
    eventType: event.type,
    txnId: event.txHash,
    txnIndex: event.txIndex,
    eventIndex: event.logIndex,
    maker: checksummed(event.maker),
    pairId: checksummed(event.pool),
  };
  const reserves =
    event.reserves === undefined
      ? {}
      : {
          reserves: {
            asset0: formatDecimal(event.reserves.reserve0, pool.decimals0),
            asset1: formatDecimal(event.reserves.reserve1, pool.decimals1),
          },
        };
  const amount0 = formatDecimal(abs(event.amount0), pool.decimals0);
  const amount1 = formatDecimal(abs(event.amount1), pool.decimals1);
  if (event.type !== "swap") return { ...head, amount0, amount1, ...reserves };
  const zeroIn = event.amount0 > 0n && event.amount1 < 0n;
  const oneIn = event.amount1 > 0n && event.amount0 < 0n;
  const price = priceNative(event.amount0, event.amount1, pool);
  if ((!zeroIn && !oneIn) || price === undefined) return undefined;
  const sides = zeroIn
    ? { asset0In: amount0, asset1Out: amount1 }
    : { asset1In: amount1, asset0Out: amount0 };
  return { ...head, ...sides, priceNative: price, ...reserves };
}

/** Renders pages of a network's pool events as DEX Screener's JSON rows (a pool's decimals looked up once per answer). */
export function createPoolEventRenderer(reader: MarketState, network: NetworkName) {
  const pools = new Map<Address, PoolDecimals>();
  const decimalsOf = (address: Address): PoolDecimals => {
    let found = pools.get(address);
    if (found === undefined) {
      const pool = reader.getPoolIndex(network).get(address);
      const d0 = pool === undefined ? undefined : reader.getToken(network, pool.token0)?.decimals;
      const d1 = pool === undefined ? undefined : reader.getToken(network, pool.token1)?.decimals;
      if (d0 === undefined || d1 === undefined) {
        throw new SwapgraphError("INTERNAL", `pool ${address} or its tokens are not in the views`);
      }
      found = { decimals0: d0, decimals1: d1 };
      pools.set(address, found);
    }
    return found;
  };
  return (events: readonly PoolEvent[]): string[] => {
    const rows: string[] = [];
    for (const event of events) {
      const block = { blockNumber: Number(event.blockNumber), blockTimestamp: event.timestamp };
      const row = renderPoolEvent(event, block, decimalsOf(event.pool));
      if (row !== undefined) rows.push(JSON.stringify(row));
    }
    return rows;
  };
}
