import {
  type Address,
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  encodePacked,
  type Hex,
  parseAbi,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRpcClient, type RpcClient } from "../../../src/chain/createRpcClient.js";
import { readV3PoolState } from "../../../src/chain/readV3PoolState.js";
import { createPrng } from "../../../src/devnet/createPrng.js";
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "../../../src/pricing/v3/getSqrtRatioAtTick.js";
import { swapExactInput } from "../../../src/pricing/v3/swapExactInput.js";
import type { V3PoolState, V3SwapResult } from "../../../src/pricing/v3/v3Types.js";
import {
  plainTicks,
  quoterCountIsExact,
  quoterTicksCrossed,
  rebuildFromLogs,
  toPoolState,
} from "./v3PoolHistory.js";
import { DEADLINE, DEPLOYER, type FixtureToken, poolEventsAbi, startV3Fixture, V3_ARTIFACTS, type V3Fixture, type V3PoolRef } from "./v3Fixture.js";

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
const erc20TransferAbi = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);

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
  for (const [symbol, decimals] of [["A", 18], ["B", 6], ["C", 8], ["D", 18]] as const) {
    tokens.set(symbol, await fx.deployToken(symbol, decimals));
  }
  for (const [i, spec] of SPECS.entries()) {
    const [x, y] = spec.tokens.map((symbol) => (tokens.get(symbol) as FixtureToken).address);
    const [token0, token1] = (x as Address) < (y as Address) ? [x as Address, y as Address] : [y as Address, x as Address];
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
      if (n === 10) await routerSwap(pool, true, 10n ** 12n);
      if (n === 20) await routerSwap(pool, false, 10n ** 15n);
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
        args: [{ tokenId: ids[1] as bigint, recipient: DEPLOYER, amount0Max: 2n ** 128n - 1n, amount1Max: 2n ** 128n - 1n }],
      }),
    );
    await routerSwap(pool, true, 10n ** 9n);
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
async function readState(pool: FixturePool): Promise<V3PoolState & { ticks: ReturnType<typeof toPoolState>["ticks"] }> {
  const head = await fx.client.getBlockNumber();
  const read = await readV3PoolState(rpc, pool.address, head);
  if (read === undefined) throw new Error(`no V3 state for ${pool.address}`);
  return toPoolState(read);
}

/** The pool as the chain holds it, read directly with the official pool ABI, tick by tick. */
async function readChain(pool: FixturePool) {
  const read = (functionName: string, args: readonly unknown[] = []) =>
    fx.client.readContract({ address: pool.address, abi: poolAbi, functionName, args });
  const [slot0, liquidity] = (await Promise.all([read("slot0"), read("liquidity")])) as [readonly unknown[], bigint];
  const bounds = [...pool.bounds].sort((a, b) => a - b);
  const infos = (await Promise.all(bounds.map((tick) => read("ticks", [tick])))) as (readonly unknown[])[];
  const ticks = bounds.flatMap((tick, i) => {
    const info = infos[i] as readonly unknown[];
    return info[7] === true ? [{ tick, liquidityNet: info[1] as bigint, liquidityGross: info[0] as bigint }] : [];
  });
  return { sqrtPriceX96: slot0[0] as bigint, tick: slot0[1] as number, liquidity, ticks };
}

describe("readV3PoolState and the log rebuild", () => {
  test("behavior: the state read at the head and the state rebuilt from the logs both equal the chain", async () => {
    for (const pool of pools) {
      const chain = await readChain(pool);
      const state = await readState(pool);
      const rebuilt = await rebuildFromLogs(fx.client, pool.address);
      const read = { sqrtPriceX96: state.sqrtPriceX96, tick: state.tick, liquidity: state.liquidity, ticks: plainTicks(state.ticks) };
      expect(read, pool.spec.name).toEqual(chain);
      expect(rebuilt.state, pool.spec.name).toEqual(chain);
      expect({ fee: state.fee, tickSpacing: state.tickSpacing }).toEqual({ fee: pool.fee, tickSpacing: pool.spec.tickSpacing });
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
