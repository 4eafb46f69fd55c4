import type { Trade, TradeMarks } from "../../src/domain/types.js";
import type { CandleSeries } from "./recomputeCandles.js";
import { addr, D0, makeTrade, POOL_A, POOL_B, POOL_C, TRADERS } from "./storeFixtures.js";

// Candle tests: tokens A, B, C and the wrapped native W; pools A/B (POOL_A), B/W (POOL_B), W/C (POOL_C).
export const TOKEN_A = addr(0x70);
export const TOKEN_B = addr(0x71);
const WRAPPED = addr(0x72);
const TOKEN_C = addr(0x73);
const E18 = 10n ** 18n;
/** Blocks about ten minutes apart, with a jitter that moves some across minute boundaries. */
export const candleTime = (block: bigint) => D0 + Number(block) * 600 + Number(block % 7n) * 13;

/** A seeded generator (mulberry32): the candle tests' trades are the same on every run. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  // Amounts around 1..1000 whole tokens with low digits a double would lose.
  const amount = () => BigInt(1 + int(1000)) * E18 + BigInt(int(1_000_000_007));
  const price = () => (int(5) === 0 ? undefined : BigInt(1 + int(5000)) * 10n ** 16n + BigInt(int(997)));
  return { next, int, amount, price };
}

/**
 * Candle trade i: every other block holds three trades, listed in reverse transaction order.
 * Shapes: plain swaps both ways, native in, a multi-hop through a fee-on-transfer token (native
 * out now and then), a native-to-wrapped round trip through one pool twice, a dust swap that
 * sent out nothing (no price), and a trade stored before candles existed (no marks).
 */
export function candleTrade(
  i: number,
  random: ReturnType<typeof createRandom>,
  overrides: Partial<Trade> = {},
): Trade {
  const blockNumber = overrides.blockNumber ?? BigInt(Math.floor(i / 3) * 2);
  const txIndex = 2 - (i % 3);
  const base = makeTrade(i, blockNumber, {
    timestamp: candleTime(blockNumber),
    txIndex,
    logIndex: txIndex * 4,
    sender: TRADERS[i % TRADERS.length]!,
  });
  const amountIn = random.amount();
  const amountOut = random.amount();
  const volumeUsd = random.amount();
  const marks = (fields: Partial<TradeMarks>): TradeMarks => ({
    priceInUsd: random.price(),
    priceOutUsd: random.price(),
    native: undefined,
    hops: [{ zeroForOne: true, amountIn, amountOut }],
    ...fields,
  });
  const shape = random.int(7);
  let trade: Trade;
  switch (shape) {
    case 0:
    case 1: {
      const zeroForOne = shape === 0;
      trade = {
        ...base,
        tokenIn: zeroForOne ? TOKEN_A : TOKEN_B,
        tokenOut: zeroForOne ? TOKEN_B : TOKEN_A,
        amountIn,
        amountOut,
        volumeUsd,
        pools: [POOL_A],
        marks: marks({ hops: [{ zeroForOne, amountIn, amountOut }] }),
      };
      break;
    }
    case 2:
      trade = {
        ...base,
        tokenIn: "",
        tokenOut: TOKEN_C,
        amountIn,
        amountOut,
        volumeUsd,
        pools: [POOL_C],
        marks: marks({ native: WRAPPED }),
      };
      break;
    case 3: {
      const middle = random.amount();
      const taxed = middle - middle / 50n;
      const nativeOut = random.int(2) === 0;
      trade = {
        ...base,
        tokenIn: TOKEN_A,
        tokenOut: nativeOut ? "" : WRAPPED,
        amountIn,
        amountOut,
        volumeUsd,
        pools: [POOL_A, POOL_B],
        marks: marks({
          native: nativeOut ? WRAPPED : undefined,
          hops: [
            { zeroForOne: true, amountIn, amountOut: middle },
            { zeroForOne: true, amountIn: taxed, amountOut },
          ],
        }),
      };
      break;
    }
    case 4: {
      const middle = random.amount();
      trade = {
        ...base,
        tokenIn: "",
        tokenOut: WRAPPED,
        amountIn,
        amountOut,
        volumeUsd,
        pools: [POOL_C, POOL_C],
        marks: marks({
          native: WRAPPED,
          hops: [
            { zeroForOne: true, amountIn, amountOut: middle },
            { zeroForOne: false, amountIn: middle, amountOut },
          ],
        }),
      };
      break;
    }
    case 5:
      trade = {
        ...base,
        tokenIn: TOKEN_A,
        tokenOut: TOKEN_B,
        amountIn: 123n,
        amountOut: 0n,
        volumeUsd: 0n,
        tracked: false,
        pools: [POOL_A],
        marks: {
          priceInUsd: undefined,
          priceOutUsd: undefined,
          native: undefined,
          hops: [{ zeroForOne: true, amountIn: 123n, amountOut: 0n }],
        },
      };
      break;
    default:
      trade = { ...base, tokenIn: TOKEN_B, tokenOut: TOKEN_C, pools: [POOL_B] };
  }
  return { ...trade, ...overrides };
}

/** Every series the candle tests can touch, so rows left behind by a bug are found too. */
export const CANDLE_SERIES: CandleSeries[] = [
  TOKEN_A,
  TOKEN_B,
  WRAPPED,
  TOKEN_C,
  POOL_A,
  POOL_B,
  POOL_C,
].flatMap((address, i) =>
  ([60, 300, 3_600, 86_400] as const).map((interval) => ({
    subject: i < 4 ? { kind: "token" as const, token: address } : { kind: "pool" as const, pool: address },
    interval,
  })),
);
