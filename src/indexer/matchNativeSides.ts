import type { Address } from "../domain/types.js";
import { type SwapEvent, swapSides } from "./buildTrades.js";

/** A Deposit (wrapping) or Withdrawal (unwrapping) of the wrapped native coin in a transaction. */
export interface WrapEvent {
  kind: "deposit" | "withdrawal";
  logIndex: number;
  /** Deposit: who was minted the wrapped coin; Withdrawal: who burnt it for the native coin. */
  account: Address;
  amount: bigint;
}

/** Which sides of a trade were the native coin rather than its wrapped token. */
export interface NativeSides {
  nativeIn: boolean;
  nativeOut: boolean;
}

/**
 * Decides, trade by trade, which sides of one transaction's trades (its swap chains, in log
 * order) were the native coin, by following the wrapped coin rather than marking the whole
 * transaction:
 * - a trade's input is native when its first pool took in the wrapped coin and a Deposit earlier
 *   in the transaction minted exactly that amount (the pool's input is what was sent to it: the
 *   coins wrapped for this trade);
 * - its output is native when its last pool sent the wrapped coin to an account that unwrapped
 *   exactly that amount (a Withdrawal by the Swap's recipient) later in the transaction.
 * Each Deposit and Withdrawal pays for one trade at most; of several that could, the one nearest
 * the swap is taken. A deposit split over several pools matches none of them (their sides stay
 * the wrapped token).
 */
export function matchNativeSides(
  chains: readonly (readonly SwapEvent[])[],
  wraps: readonly WrapEvent[],
  wrappedNative: Address,
): NativeSides[] {
  // Most transactions wrap nothing: no trade side can be native, and no set or lists are needed.
  if (wraps.length === 0) return chains.map(() => ({ nativeIn: false, nativeOut: false }));
  const used = new Set<WrapEvent>();
  const take = (candidates: WrapEvent[]): boolean => {
    const match = candidates.find((wrap) => !used.has(wrap));
    if (match !== undefined) used.add(match);
    return match !== undefined;
  };
  return chains.map((chain) => {
    const first = chain[0];
    const last = chain[chain.length - 1];
    if (first === undefined || last === undefined) return { nativeIn: false, nativeOut: false };
    const head = swapSides(first);
    const tail = swapSides(last);
    const nativeIn =
      head.tokenIn === wrappedNative &&
      take(
        wraps
          .filter((w) => w.kind === "deposit" && w.logIndex < first.logIndex && w.amount === head.amountIn)
          .reverse(),
      );
    const nativeOut =
      tail.tokenOut === wrappedNative &&
      take(
        wraps.filter(
          (w) =>
            w.kind === "withdrawal" &&
            w.logIndex > last.logIndex &&
            w.account === last.to &&
            w.amount === tail.amountOut,
        ),
      );
    return { nativeIn, nativeOut };
  });
}
