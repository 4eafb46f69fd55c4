import { describe, expect, test } from "vitest";
import type { Address, Hash, Pair } from "../../src/domain/types.js";
import { buildTrade, type SwapEvent } from "../../src/indexer/buildTrades.js";
import { utcDate } from "../../src/lib/utcDate.js";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const WRAPPED = a(1);
const USDT = a(2);
const CAKE = a(3);
const ROUTER = a(9);
const TRADER = a(7);
const tx = {
  txIndex: 4,
  from: TRADER,
  timestamp: 1_700_000_000,
};
const ERC20 = { nativeIn: false, nativeOut: false };

function pair(address: Address, token0: Address, token1: Address): Pair {
  return { address, dex: "dex", factory: a(100), token0, token1, feeBps: 30 };
}

function swap(p: Pair, amounts: Partial<SwapEvent>, logIndex: number, to: Address = TRADER): SwapEvent {
  return {
    txHash: `0x${"ab".repeat(32)}` as Hash,
    blockNumber: 10n,
    logIndex,
    pair: p,
    amount0In: 0n,
    amount1In: 0n,
    amount0Out: 0n,
    amount1Out: 0n,
    to,
    ...amounts,
  };
}

const wbnbUsdt = pair(a(50), WRAPPED, USDT);
const usdtCake = pair(a(51), USDT, CAKE);

describe("buildTrade", () => {
  test("behavior: a multi-hop transaction is one trade, first token in and last token out", () => {
    const trade = buildTrade({
      network: "bsc",
      swaps: [
        swap(wbnbUsdt, { amount0In: 5n, amount1Out: 3000n }, 3, usdtCake.address),
        swap(usdtCake, { amount0In: 3000n, amount1Out: 1200n }, 7),
      ],
      tx,
      native: ERC20,
    });
    expect(trade).toMatchObject({
      tokenIn: WRAPPED,
      amountIn: 5n,
      tokenOut: CAKE,
      amountOut: 1200n,
      sender: TRADER,
      txIndex: 4,
      pools: [wbnbUsdt.address, usdtCake.address],
    });
  });

  test('behavior: the native coin shows as "" on the sides matchNativeSides found native', () => {
    const paid = buildTrade({
      network: "bsc",
      swaps: [swap(wbnbUsdt, { amount0In: 5n, amount1Out: 3000n }, 1)],
      tx,
      native: { nativeIn: true, nativeOut: false },
    });
    expect([paid.tokenIn, paid.tokenOut]).toEqual(["", USDT]);
    const received = buildTrade({
      network: "bsc",
      swaps: [swap(wbnbUsdt, { amount1In: 3000n, amount0Out: 5n }, 1, ROUTER)],
      tx,
      native: { nativeIn: false, nativeOut: true },
    });
    expect([received.tokenIn, received.tokenOut]).toEqual([USDT, ""]);
    const wrapped = buildTrade({
      network: "bsc",
      swaps: [swap(wbnbUsdt, { amount1In: 3000n, amount0Out: 5n }, 1, ROUTER)],
      tx,
      native: ERC20,
    });
    expect(wrapped.tokenOut).toBe(WRAPPED);
  });

  test("error: no swaps is a programming error", () => {
    expect(() => buildTrade({ network: "bsc", swaps: [], tx, native: ERC20 })).toThrow(
      "buildTrade needs at least one swap",
    );
  });

  test("args: utcDate gives the UTC calendar day", () => {
    expect(utcDate(0)).toBe("1970-01-01");
    expect(utcDate(1_700_000_000)).toBe("2023-11-14");
    expect(utcDate(86_399)).toBe("1970-01-01");
  });
});
