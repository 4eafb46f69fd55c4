import { type Address, encodeFunctionData } from "viem";
import { RpcError } from "../errors.js";
import { v3PoolAbi } from "./abis.js";
import { cappedMulticall } from "./cappedMulticall.js";
import type { RpcClient } from "./createRpcClient.js";
import { decodeCallResult } from "./decodeCallResult.js";
import type { CappedCall, CappedCallResult } from "./decodeCappedMulticall.js";

/** An initialized tick of a V3 pool as its `ticks(i)` holds it. */
interface V3TickState {
  tick: number;
  /** int128 */
  liquidityNet: bigint;
  /** uint128, never 0 here */
  liquidityGross: bigint;
}

/** Everything a swap on a V3 pool depends on, as the pool holds it at one block. */
export interface V3PoolStateRead {
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  /** Pips (millionths). */
  fee: number;
  tickSpacing: number;
  /** Every initialized tick, ascending. */
  ticks: V3TickState[];
  /** Bitmap words read (the whole tick range) and how many had a tick: what the read cost. */
  words: { read: number; set: number };
}

// TickMath.MAX_TICK; the chain part does not import the pricing math.
const MAX_TICK = 887272;
// Cold storage reads: a word is one slot, a tick's liquidity one more (with call overhead).
const HEADER_GAS = 30_000n;
const WORD_GAS = 30_000n;
const TICK_GAS = 50_000n;

// Calls per round of readInRounds: about eight eth_calls of ~65 kB each (cappedMulticall splits
// at 24 kB of answers), so a batching transport never sends one oversized HTTP body (a spacing-1
// pool has 6,932 bitmap words: anvil refused them in one batch as an invalid request).
const CALLS_PER_ROUND = 1000;

/** cappedMulticall over `calls` a round at a time, results in order. */
async function readInRounds(
  client: RpcClient,
  calls: readonly CappedCall[],
  options: { blockNumber: bigint },
): Promise<CappedCallResult[]> {
  const results: CappedCallResult[] = [];
  for (let start = 0; start < calls.length; start += CALLS_PER_ROUND) {
    results.push(...(await cappedMulticall(client, calls.slice(start, start + CALLS_PER_ROUND), options)));
  }
  return results;
}

const encode = (functionName: "slot0" | "liquidity" | "fee" | "tickSpacing") =>
  encodeFunctionData({ abi: v3PoolAbi, functionName });

function decodeOrThrow(
  pool: Address,
  what: string,
  functionName: "tickBitmap" | "ticks",
  result: CappedCallResult | undefined,
  blockNumber: bigint,
): unknown {
  const value = decodeCallResult(v3PoolAbi, functionName, result);
  if (value === undefined) {
    throw new RpcError(`V3 pool ${pool} answered no ${what} at block ${blockNumber}.`, {
      details: `${functionName} reverted or answered malformed data`,
    });
  }
  return value;
}

/**
 * Reads a V3 pool's whole swap state at `blockNumber`, for a pool first met mid-history: slot0's
 * price and tick, liquidity, fee, tick spacing, then every tick-bitmap word over the tick range
 * and `ticks(i)` of each set bit, in capped multicalls (cappedMulticall, a thousand calls a
 * round), each pinned to the block so the parts agree. Works for Uniswap V3 and PancakeSwap V3
 * (whose slot0 differs after the tick). Undefined when the address answers no V3 slot0 there (no
 * pool yet, or not a V3 pool); RpcError when the chain cannot be asked or a word or tick read
 * fails.
 */
export async function readV3PoolState(
  client: RpcClient,
  pool: Address,
  blockNumber: bigint,
): Promise<V3PoolStateRead | undefined> {
  const header: CappedCall[] = (["slot0", "liquidity", "fee", "tickSpacing"] as const).map((name) => ({
    to: pool,
    data: encode(name),
    gas: HEADER_GAS,
    maxReturnBytes: name === "slot0" ? 64 : 32,
  }));
  const [slot0Result, liquidityResult, feeResult, spacingResult] = await cappedMulticall(client, header, {
    blockNumber,
  });
  const slot0 = decodeCallResult(v3PoolAbi, "slot0", slot0Result) as readonly [bigint, number] | undefined;
  const liquidity = decodeCallResult(v3PoolAbi, "liquidity", liquidityResult) as bigint | undefined;
  const fee = decodeCallResult(v3PoolAbi, "fee", feeResult) as number | undefined;
  const tickSpacing = decodeCallResult(v3PoolAbi, "tickSpacing", spacingResult) as number | undefined;
  if (slot0 === undefined || liquidity === undefined || fee === undefined || tickSpacing === undefined)
    return undefined;
  if (tickSpacing <= 0) return undefined;

  // Compressed ticks (tick / spacing, floored) fill 256-bit words; MIN_TICK = -MAX_TICK.
  const lastCompressed = Math.floor(MAX_TICK / tickSpacing);
  const firstWord = Math.floor(Math.floor(-MAX_TICK / tickSpacing) / 256);
  const lastWord = Math.floor(lastCompressed / 256);
  const wordPositions: number[] = [];
  for (let word = firstWord; word <= lastWord; word++) wordPositions.push(word);
  const wordResults = await readInRounds(
    client,
    wordPositions.map((word) => ({
      to: pool,
      data: encodeFunctionData({ abi: v3PoolAbi, functionName: "tickBitmap", args: [word] }),
      gas: WORD_GAS,
      maxReturnBytes: 32,
    })),
    { blockNumber },
  );
  const initialized: number[] = [];
  let setWords = 0;
  wordResults.forEach((result, i) => {
    const bits = decodeOrThrow(pool, "tick bitmap word", "tickBitmap", result, blockNumber) as bigint;
    if (bits === 0n) return;
    setWords++;
    const word = wordPositions[i] as number;
    for (let bit = 0; bit < 256; bit++) {
      if ((bits >> BigInt(bit)) & 1n) initialized.push((word * 256 + bit) * tickSpacing);
    }
  });

  const tickResults = await readInRounds(
    client,
    initialized.map((tick) => ({
      to: pool,
      data: encodeFunctionData({ abi: v3PoolAbi, functionName: "ticks", args: [tick] }),
      gas: TICK_GAS,
      maxReturnBytes: 64,
    })),
    { blockNumber },
  );
  const ticks = initialized.map((tick, i): V3TickState => {
    const [liquidityGross, liquidityNet] = decodeOrThrow(
      pool,
      `tick ${tick}`,
      "ticks",
      tickResults[i],
      blockNumber,
    ) as [bigint, bigint];
    return { tick, liquidityNet, liquidityGross };
  });
  return {
    sqrtPriceX96: slot0[0],
    tick: slot0[1],
    liquidity,
    fee,
    tickSpacing,
    ticks,
    words: { read: wordPositions.length, set: setWords },
  };
}
