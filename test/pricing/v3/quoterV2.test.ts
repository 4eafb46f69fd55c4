import { createPrng } from "@swapgraph/devnet/createPrng.js";
import {
  type Address,
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  encodePacked,
  type Hex,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRpcClient, type RpcClient } from "../../../src/chain/createRpcClient.js";
import { readV3PoolState } from "../../../src/chain/readV3PoolState.js";
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "../../../src/pricing/v3/getSqrtRatioAtTick.js";
import { swapExactInput } from "../../../src/pricing/v3/swapExactInput.js";
import type { V3PoolState, V3SwapResult } from "../../../src/pricing/v3/v3Types.js";
import {
  DEADLINE,
  DEPLOYER,
  type FixtureToken,
  poolEventsAbi,
  startV3Fixture,
  V3_ARTIFACTS,
  type V3Fixture,
  type V3PoolRef,
} from "./v3Fixture.js";
import {
  amountCrossing,
  plainTicks,
  quoterCountIsExact,
  quoterTicksCrossed,
  rebuildFromLogs,
  toPoolState,
} from "./v3PoolHistory.js";

/** A pool of the fixture: its tokens by symbol, fee tier and where its price starts. */
interface PoolSpec {
  name: string;
  tokens: [string, string];
  fee: number;
  tickSpacing: number;
  /** The tick the price starts in (token1 per token0 after sorting by address). */
  startTick: number;
  /** Without a full-range position a big enough swap runs out of liquidity before the limit. */
  fullRange: boolean;
}

const SPECS: PoolSpec[] = [
  // 18 and 6 decimals, far below tick 0, just under the bitmap word edge at -199,680.
  { name: "A/B 0.05%", tokens: ["A", "B"], fee: 500, tickSpacing: 10, startTick: -199_695, fullRange: true },
  // 18 and 8 decimals, negative, just under the word edge at -15,360.
  { name: "A/C 0.3%", tokens: ["A", "C"], fee: 3000, tickSpacing: 60, startTick: -15_370, fullRange: true },
  // 6 and 18 decimals, positive, under the word edge at 51,200; no full-range position.
  { name: "B/D 1%", tokens: ["B", "D"], fee: 10000, tickSpacing: 200, startTick: 51_150, fullRange: false },
  // 18 and 18 decimals around tick 0 (the bitmap's word -1 / word 0 edge).
  { name: "A/D 0.05%", tokens: ["A", "D"], fee: 500, tickSpacing: 10, startTick: 3, fullRange: true },
];

interface FixturePool extends V3PoolRef {
  spec: PoolSpec;
  /** Every tick ever used as a position bound, to read from the chain one by one. */
  bounds: Set<number>;
}

const quoterAbi = V3_ARTIFACTS.quoter.abi;
const poolAbi = V3_ARTIFACTS.pool.abi;

let fx: V3Fixture;
let rpc: RpcClient;
const tokens = new Map<string, FixtureToken>();
const pools: FixturePool[] = [];

const align = (tick: number, spacing: number) => Math.floor(tick / spacing) * spacing;

/** The positions of a pool: around the price, wide, full range, out of range, on word edges, overlapping. */
function planPositions(spec: PoolSpec, seed: number): [number, number, bigint][] {
  const prng = createPrng(seed);
  const s = spec.tickSpacing;
  const t = align(spec.startTick, s);
  const edge = Math.round(spec.startTick / (256 * s)) * 256 * s;
  const L = () => BigInt(prng.int(1, 1000)) * 10n ** 15n;
  const plan: [number, number, bigint][] = [];
  if (spec.fullRange) plan.push([align(MIN_TICK + s - 1, s), align(MAX_TICK, s), 10n ** 16n]);
  plan.push([t - 3000 * s, t + 3000 * s, L()]);
  for (let i = 0; i < 12; i++) plan.push([t - prng.int(1, 20) * s, t + prng.int(1, 20) * s, L()]);
  plan.push([t - 400 * s, t - 150 * s, L()], [t + 150 * s, t + 500 * s, L()]);
  plan.push([edge - 5 * s, edge + 5 * s, L()], [edge - 30 * s, edge, L()], [edge, edge + 40 * s, L()]);
  plan.push([edge - s, edge + s, L()], [edge - 5 * s, t + 10 * s, L()]);
  // Many ranges over ±600 spacings, so big swaps cross tens of ticks.
  for (let i = 0; i < 20; i++) {
    const lower = t + prng.int(-600, 580) * s;
    plan.push([lower, lower + prng.int(1, 60) * s, L()]);
  }
  // The same bounds twice: one tick, two positions.
  const first = plan[2] as [number, number, bigint];
  plan.push([first[0], first[1], L()]);
  return plan;
}

async function routerSwap(pool: V3PoolRef, zeroForOne: boolean, amountIn: bigint): Promise<Hex> {
  return fx.send(
    fx.router,
    encodeFunctionData({
      abi: V3_ARTIFACTS.router.abi,
      functionName: "exactInputSingle",
      args: [
        {
          tokenIn: zeroForOne ? pool.token0 : pool.token1,
          tokenOut: zeroForOne ? pool.token1 : pool.token0,
          fee: pool.fee,
          recipient: DEPLOYER,
          deadline: DEADLINE,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    }),
  );
}

/** Builds the pools' history: mints, swaps between them, more mints, partial and full burns, a fee collect. */
async function buildHistory(): Promise<void> {
  for (const [symbol, decimals] of [
    ["A", 18],
    ["B", 6],
    ["C", 8],
    ["D", 18],
  ] as const) {
    tokens.set(symbol, await fx.deployToken(symbol, decimals));
  }
  for (const [i, spec] of SPECS.entries()) {
    const [x, y] = spec.tokens.map((symbol) => (tokens.get(symbol) as FixtureToken).address);
    const [token0, token1] =
      (x as Address) < (y as Address) ? [x as Address, y as Address] : [y as Address, x as Address];
    // A price inside the start tick, not on its edge.
    const start = getSqrtRatioAtTick(spec.startTick);
    const sqrtPriceX96 = start + (getSqrtRatioAtTick(spec.startTick + 1) - start) / 3n;
    const address = await fx.createPool(token0, token1, spec.fee, sqrtPriceX96);
    const pool: FixturePool = { address, token0, token1, fee: spec.fee, spec, bounds: new Set() };
    pools.push(pool);
    const plan = planPositions(spec, 1000 + i);
    const ids: bigint[] = [];
    for (const [n, [lower, upper, liquidity]] of plan.entries()) {
      ids.push(await fx.mint(pool, lower, upper, liquidity));
      pool.bounds.add(lower).add(upper);
      // Swaps between the mints: later mints meet a moved price (in range or not by the swap's tick).
      if (n === 10) await routerSwap(pool, true, amountCrossing(await readState(pool), true, 2));
      if (n === 20) await routerSwap(pool, false, amountCrossing(await readState(pool), false, 3));
    }
    // Remove liquidity: all of a few positions (their unshared ticks leave), half of others.
    for (const index of [3, 15, 16, 18, 25]) {
      const id = ids[index] as bigint;
      await fx.decreaseLiquidity(id, await fx.positionLiquidity(id));
    }
    for (const index of [1, 5, 19]) {
      const id = ids[index] as bigint;
      await fx.decreaseLiquidity(id, (await fx.positionLiquidity(id)) / 2n);
    }
    // collect() pokes the position with a Burn of 0 liquidity.
    await fx.send(
      fx.positionManager,
      encodeFunctionData({
        abi: V3_ARTIFACTS.positionManager.abi,
        functionName: "collect",
        args: [
          {
            tokenId: ids[1] as bigint,
            recipient: DEPLOYER,
            amount0Max: 2n ** 128n - 1n,
            amount1Max: 2n ** 128n - 1n,
          },
        ],
      }),
    );
    await routerSwap(pool, true, amountCrossing(await readState(pool), true, 1));
  }
}

beforeAll(async () => {
  fx = await startV3Fixture();
  rpc = createRpcClient({ urls: [fx.anvil.rpcUrl], chainId: 31337, retryCount: 0, batch: true });
  await buildHistory();
});

afterAll(async () => {
  await fx?.stop();
});

/** The pool state as readV3PoolState reads it at the head. */
async function readState(
  pool: FixturePool,
): Promise<V3PoolState & { ticks: ReturnType<typeof toPoolState>["ticks"] }> {
  const head = await fx.client.getBlockNumber();
  const read = await readV3PoolState(rpc, pool.address, head);
  if (read === undefined) throw new Error(`no V3 state for ${pool.address}`);
  return toPoolState(read);
}

/** The pool as the chain holds it, read directly with the official pool ABI, tick by tick. */
async function readChain(pool: FixturePool) {
  const read = (functionName: string, args: readonly unknown[] = []) =>
    fx.client.readContract({ address: pool.address, abi: poolAbi, functionName, args });
  const [slot0, liquidity] = (await Promise.all([read("slot0"), read("liquidity")])) as [
    readonly unknown[],
    bigint,
  ];
  const bounds = [...pool.bounds].sort((a, b) => a - b);
  const infos = (await Promise.all(bounds.map((tick) => read("ticks", [tick])))) as (readonly unknown[])[];
  const ticks = bounds.flatMap((tick, i) => {
    const info = infos[i] as readonly unknown[];
    return info[7] === true
      ? [{ tick, liquidityNet: info[1] as bigint, liquidityGross: info[0] as bigint }]
      : [];
  });
  return { sqrtPriceX96: slot0[0] as bigint, tick: slot0[1] as number, liquidity, ticks };
}

describe("readV3PoolState and the log rebuild", () => {
  test("behavior: the state read at the head and the state rebuilt from the logs both equal the chain", async () => {
    for (const pool of pools) {
      const chain = await readChain(pool);
      const state = await readState(pool);
      const rebuilt = await rebuildFromLogs(fx.client, pool.address);
      const read = {
        sqrtPriceX96: state.sqrtPriceX96,
        tick: state.tick,
        liquidity: state.liquidity,
        ticks: plainTicks(state.ticks),
      };
      expect(read, pool.spec.name).toEqual(chain);
      expect(rebuilt.state, pool.spec.name).toEqual(chain);
      expect({ fee: state.fee, tickSpacing: state.tickSpacing }).toEqual({
        fee: pool.fee,
        tickSpacing: pool.spec.tickSpacing,
      });
      // The history has what the test claims: ticks left (fewer initialized than bounds), burns of 0.
      expect(chain.ticks.length).toBeLessThan(pool.bounds.size);
      expect(chain.ticks.length).toBeGreaterThan(40);
      expect(rebuilt.counts).toMatchObject({ Initialize: 1, Swap: 3 });
      expect(rebuilt.counts.Burn).toBe(9);
      console.log(
        `${pool.spec.name}: ${chain.ticks.length} initialized ticks of ${pool.bounds.size} bounds, ` +
          `events ${JSON.stringify(rebuilt.counts)}`,
      );
    }
  });
});

interface Quote {
  amountOut: bigint;
  sqrtPriceX96After: bigint;
  initializedTicksCrossed: number;
}

const isRevert = (error: unknown) => error instanceof Error && /revert/i.test(error.message);

/** QuoterV2.quoteExactInputSingle by eth_call (batched by the client), or "revert". */
async function quoteSingle(
  pool: V3PoolRef,
  zeroForOne: boolean,
  amountIn: bigint,
): Promise<Quote | "revert"> {
  const [tokenIn, tokenOut] = zeroForOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
  const data = encodeFunctionData({
    abi: quoterAbi,
    functionName: "quoteExactInputSingle",
    args: [{ tokenIn, tokenOut, amountIn, fee: pool.fee, sqrtPriceLimitX96: 0n }],
  });
  try {
    const { data: answer } = await fx.client.call({ to: fx.quoter, data });
    const [amountOut, sqrtPriceX96After, initializedTicksCrossed] = decodeFunctionResult({
      abi: quoterAbi,
      functionName: "quoteExactInputSingle",
      data: answer as Hex,
    }) as readonly [bigint, bigint, number, bigint];
    return { amountOut, sqrtPriceX96After, initializedTicksCrossed };
  } catch (error) {
    if (isRevert(error)) return "revert";
    throw error;
  }
}

const trySwap = (state: V3PoolState, zeroForOne: boolean, amountIn: bigint): V3SwapResult | "revert" => {
  try {
    return swapExactInput(state, zeroForOne, amountIn);
  } catch {
    return "revert";
  }
};

/** 1, 2, 3, then about 300 amounts growing by ~1.38 each (with seeded jitter) up to 2^140. */
function amountsToQuote(seed: number): bigint[] {
  const prng = createPrng(seed);
  const amounts = [1n, 2n, 3n];
  for (let a = 4; a < 2 ** 140; a *= 1.38) {
    amounts.push(BigInt(Math.floor(a * (1 + prng.next() * 0.37))) + BigInt(prng.int(0, 999)));
  }
  return amounts;
}

describe("swapExactInput against QuoterV2", () => {
  test("behavior: every amount from 1 wei to more than the pool holds quotes exactly as quoteExactInputSingle", async () => {
    const mismatches: unknown[] = [];
    let compared = 0;
    let ticksComparable = 0;
    for (const [p, pool] of pools.entries()) {
      const state = await readState(pool);
      for (const zeroForOne of [true, false]) {
        const amounts = amountsToQuote(7 * p + (zeroForOne ? 1 : 2));
        const quotes = await Promise.all(amounts.map((amount) => quoteSingle(pool, zeroForOne, amount)));
        let exhausted = 0;
        let maxCrossed = 0;
        for (const [i, amount] of amounts.entries()) {
          const quote = quotes[i] as Quote | "revert";
          const mine = trySwap(state, zeroForOne, amount);
          compared++;
          const where = { pool: pool.spec.name, zeroForOne, amount };
          if (quote === "revert" || mine === "revert") {
            if (quote !== mine) mismatches.push({ ...where, quote, mine });
            continue;
          }
          if (mine.amountIn < amount) exhausted++;
          maxCrossed = Math.max(maxCrossed, mine.ticksCrossed);
          const counted = quoterTicksCrossed(state.ticks, state.tickSpacing, state.tick, mine.tick);
          const exact = quoterCountIsExact(state.ticks, state.tickSpacing, state.tick, mine.tick);
          if (exact) ticksComparable++;
          if (
            quote.amountOut !== mine.amountOut ||
            quote.sqrtPriceX96After !== mine.sqrtPriceX96 ||
            quote.initializedTicksCrossed !== counted ||
            (exact && quote.initializedTicksCrossed !== mine.ticksCrossed)
          ) {
            mismatches.push({ ...where, quote, mine, counted, exact });
          }
        }
        // The range covers what it should: swaps that cross many ticks and swaps the pool cannot fill.
        expect(exhausted, `${pool.spec.name} ${zeroForOne}`).toBeGreaterThan(10);
        expect(maxCrossed, `${pool.spec.name} ${zeroForOne}`).toBeGreaterThanOrEqual(20);
        expect(quotes.filter((q) => q === "revert")).toEqual([]);
        console.log(
          `${pool.spec.name} ${zeroForOne ? "0→1" : "1→0"}: ${amounts.length} amounts, ${exhausted} beyond the pool, up to ${maxCrossed} ticks crossed`,
        );
      }
    }
    expect(mismatches).toEqual([]);
    console.log(
      `${compared} single-pool quotes equal; initializedTicksCrossed equal to ticks crossed in ${ticksComparable}`,
    );
  });

  test("behavior: chained swapExactInput equals quoteExactInput on multi-hop paths", async () => {
    const bySymbols = (a: string, b: string) =>
      pools.find((pool) => pool.spec.tokens.includes(a) && pool.spec.tokens.includes(b)) as FixturePool;
    const address = (symbol: string) => (tokens.get(symbol) as FixtureToken).address;
    const paths = [
      ["B", "A", "C"],
      ["D", "A", "B"],
      ["C", "A", "D"],
      ["D", "B", "A"],
      ["C", "A", "B", "D"],
    ];
    const states = new Map<string, V3PoolState>();
    for (const pool of pools) states.set(pool.address, await readState(pool));
    let compared = 0;
    let reverted = 0;
    const mismatches: unknown[] = [];
    for (const [n, symbols] of paths.entries()) {
      const hops = symbols.slice(1).map((to, i) => {
        const from = symbols[i] as string;
        const pool = bySymbols(from, to);
        return {
          pool,
          zeroForOne: address(from) < address(to),
          state: states.get(pool.address) as V3PoolState,
        };
      });
      const types = symbols.flatMap((_, i) => (i === 0 ? ["address"] : ["uint24", "address"]));
      const values = symbols.flatMap((symbol, i) =>
        i === 0 ? [address(symbol)] : [hops[i - 1]?.pool.fee, address(symbol)],
      );
      const path = encodePacked(types, values);
      const amounts = amountsToQuote(100 + n).filter((_, i) => i % 8 === 0);
      const quotes = await Promise.all(
        amounts.map(async (amountIn) => {
          try {
            const { data } = await fx.client.call({
              to: fx.quoter,
              data: encodeFunctionData({
                abi: quoterAbi,
                functionName: "quoteExactInput",
                args: [path, amountIn],
              }),
            });
            return decodeFunctionResult({
              abi: quoterAbi,
              functionName: "quoteExactInput",
              data: data as Hex,
            }) as readonly [bigint, readonly bigint[], readonly number[], bigint];
          } catch (error) {
            if (isRevert(error)) return "revert" as const;
            throw error;
          }
        }),
      );
      for (const [i, amountIn] of amounts.entries()) {
        let amount = amountIn;
        const prices: bigint[] = [];
        const crossed: number[] = [];
        for (const hop of hops) {
          // The pool refuses a swap of 0 (AS): a hop that pays nothing makes the quote revert.
          if (amount === 0n) break;
          const result = swapExactInput(hop.state, hop.zeroForOne, amount);
          prices.push(result.sqrtPriceX96);
          crossed.push(
            quoterTicksCrossed(hop.state.ticks, hop.state.tickSpacing, hop.state.tick, result.tick),
          );
          amount = result.amountOut;
        }
        const expected = prices.length < hops.length ? "revert" : [amount, prices, crossed];
        if (expected === "revert") reverted++;
        const quote = quotes[i];
        const actual =
          quote === "revert" || quote === undefined ? quote : [quote[0], [...quote[1]], [...quote[2]]];
        compared++;
        if (JSON.stringify(actual, bigintJson) !== JSON.stringify(expected, bigintJson)) {
          mismatches.push({ path: symbols.join(">"), amountIn, actual, expected });
        }
      }
    }
    expect(mismatches).toEqual([]);
    // Only the smallest amounts, whose first hop pays nothing, revert (on the pool's AS check).
    expect(reverted).toBeLessThan(compared / 10);
    console.log(
      `${compared} multi-hop quotes equal over ${paths.length} paths (${reverted} of them reverts on both sides)`,
    );
  });
});

const bigintJson = (_: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);

describe("swapExactInput against real swaps", () => {
  test("behavior: SwapRouter swaps leave slot0 and liquidity where swapExactInput says, and their Swap logs carry its amounts", async () => {
    let swaps = 0;
    let crossed = 0;
    for (const pool of pools) {
      let state = await readState(pool);
      // Alternate directions, each swap crossing a few more ticks; the last one empties the 1% pool.
      const plan: [boolean, bigint][] = [];
      for (let i = 0; i < 6; i++) {
        const zeroForOne = i % 2 === 0;
        plan.push([zeroForOne, 0n]);
      }
      if (!pool.spec.fullRange) plan.push([false, 1n << 140n]);
      for (const [i, [zeroForOne, fixed]] of plan.entries()) {
        const amount = fixed > 0n ? fixed : amountCrossing(state, zeroForOne, 2 + i);
        const expected = swapExactInput(state, zeroForOne, amount);
        const hash = await routerSwap(pool, zeroForOne, amount);
        const receipt = await fx.client.getTransactionReceipt({ hash });
        const swapLogs = receipt.logs
          .filter((log) => log.address.toLowerCase() === pool.address)
          .map((log) => decodeEventLog({ abi: poolEventsAbi, data: log.data, topics: log.topics }))
          .filter((event) => event.eventName === "Swap");
        expect(swapLogs).toHaveLength(1);
        const [amountIn, amountOut] = zeroForOne
          ? [swapLogs[0]?.args.amount0, swapLogs[0]?.args.amount1]
          : [swapLogs[0]?.args.amount1, swapLogs[0]?.args.amount0];
        expect({ amountIn, amountOut: -(amountOut as bigint) }).toEqual({
          amountIn: expected.amountIn,
          amountOut: expected.amountOut,
        });
        expect(swapLogs[0]?.args).toMatchObject({
          sqrtPriceX96: expected.sqrtPriceX96,
          tick: expected.tick,
          liquidity: expected.liquidity,
        });
        const chain = await readChain(pool);
        expect({ sqrtPriceX96: chain.sqrtPriceX96, tick: chain.tick, liquidity: chain.liquidity }).toEqual({
          sqrtPriceX96: expected.sqrtPriceX96,
          tick: expected.tick,
          liquidity: expected.liquidity,
        });
        if (fixed > 0n) expect(expected.amountIn).toBeLessThan(amount);
        swaps++;
        crossed += expected.ticksCrossed;
        state = {
          ...state,
          sqrtPriceX96: expected.sqrtPriceX96,
          tick: expected.tick,
          liquidity: expected.liquidity,
        };
      }
      // After the swaps the log rebuild still equals the chain.
      expect((await rebuildFromLogs(fx.client, pool.address)).state).toEqual(await readChain(pool));
    }
    console.log(`${swaps} router swaps crossing ${crossed} initialized ticks in all matched`);
  });
});

describe("readV3PoolState", () => {
  test("behavior: undefined where there is no V3 pool: an ERC-20, or a pool's address before its creation", async () => {
    const head = await fx.client.getBlockNumber();
    const token = tokens.get("A") as FixtureToken;
    expect(await readV3PoolState(rpc, token.address, head)).toBeUndefined();
    expect(await readV3PoolState(rpc, (pools[0] as FixturePool).address, 1n)).toBeUndefined();
  });
});
