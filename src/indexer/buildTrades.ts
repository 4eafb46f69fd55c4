import type { Address, Hash, NetworkName, Pair, Trade } from "../domain/types.js";
import { NATIVE } from "../domain/types.js";

/** A decoded Swap log of an indexed pair, in chain order. */
export interface SwapEvent {
  txHash: Hash;
  blockNumber: bigint;
  logIndex: number;
  pair: Pair;
  amount0In: bigint;
  amount1In: bigint;
  amount0Out: bigint;
  amount1Out: bigint;
  /** Recipient of the output (a router when it unwraps to the native coin). */
  to: Address;
}

/** What the indexer knows of a transaction that swapped (from its logs and its sender). */
export interface TxInfo {
  txIndex: number;
  /** The account that signed it. */
  from: Address;
  timestamp: number;
}

/** The side of a pair a swap took in and gave out. */
export function swapSides(swap: SwapEvent): {
  tokenIn: Address;
  amountIn: bigint;
  tokenOut: Address;
  amountOut: bigint;
} {
  const { pair } = swap;
  // A pair can see input on both sides (flash swaps); the side with the larger net input is what went in.
  const net0 = swap.amount0In - swap.amount0Out;
  const net1 = swap.amount1In - swap.amount1Out;
  return net0 > net1
    ? { tokenIn: pair.token0, amountIn: swap.amount0In, tokenOut: pair.token1, amountOut: swap.amount1Out }
    : { tokenIn: pair.token1, amountIn: swap.amount1In, tokenOut: pair.token0, amountOut: swap.amount0Out };
}

/**
 * Folds one chain of swaps of a transaction (see groupSwapChains) into one trade: the first token
 * in and the last token out, identified by the first swap's log index.
 * The native coin shows as "" on the sides `native` names (see matchNativeSides: the wrapped coin
 * was minted for this trade's first pool, or what its last pool sent out was unwrapped). Returns
 * the trade without its USD value.
 */
export function buildTrade(args: {
  network: NetworkName;
  swaps: readonly SwapEvent[];
  tx: TxInfo;
  native: { nativeIn: boolean; nativeOut: boolean };
}): Omit<Trade, "volumeUsd" | "tracked"> {
  const { swaps, tx, native } = args;
  const first = swaps[0];
  const last = swaps[swaps.length - 1];
  if (first === undefined || last === undefined) throw new Error("buildTrade needs at least one swap");
  const head = swapSides(first);
  const tail = swapSides(last);
  const tokenIn = native.nativeIn ? NATIVE : head.tokenIn;
  const tokenOut = native.nativeOut ? NATIVE : tail.tokenOut;
  return {
    network: args.network,
    txHash: first.txHash,
    blockNumber: first.blockNumber,
    timestamp: tx.timestamp,
    txIndex: tx.txIndex,
    logIndex: first.logIndex,
    sender: tx.from,
    tokenIn,
    amountIn: head.amountIn,
    tokenOut,
    amountOut: tail.amountOut,
    pools: swaps.map((swap) => swap.pair.address),
  };
}
