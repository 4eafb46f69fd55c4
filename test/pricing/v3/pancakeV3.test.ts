import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createPrng } from "@swapgraph/devnet/createPrng.js";
import { devnetTokenAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import {
  type Abi,
  type Address,
  decodeFunctionResult,
  encodeDeployData,
  encodeFunctionData,
  encodePacked,
  type Hex,
  keccak256,
  maxUint256,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRpcClient, type RpcClient } from "../../../src/chain/createRpcClient.js";
import { readV3PoolState } from "../../../src/chain/readV3PoolState.js";
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "../../../src/pricing/v3/getSqrtRatioAtTick.js";
import { swapExactInput } from "../../../src/pricing/v3/swapExactInput.js";
import type { V3PoolState, V3SwapResult } from "../../../src/pricing/v3/v3Types.js";
import {
  DEPLOYER,
  type FixtureToken,
  pancakePoolEventsAbi,
  startV3Fixture,
  type V3Fixture,
} from "./v3Fixture.js";
import { amountCrossing, plainTicks, rebuildFromLogs, toPoolState } from "./v3PoolHistory.js";

// PancakeSwap V3's pool, as built in its npm package. Its periphery ships no build, and its
// factory needs a PancakeV3PoolDeployer that ships none either: a small harness stands in for
// both (deploys the official pool code, pays mints and swaps).
const require = createRequire(import.meta.url);
const PANCAKE_POOL =
  require("@pancakeswap/v3-core/artifacts/contracts/PancakeV3Pool.sol/PancakeV3Pool.json") as {
    abi: Abi;
    bytecode: Hex;
  };

interface Harness {
  abi: Abi;
  bytecode: Hex;
}

async function compileHarness(): Promise<Harness> {
  const { default: solc } = await import("solc");
  const content = readFileSync(new URL("./PancakeV3Harness.sol", import.meta.url), "utf8");
  const input = {
    language: "Solidity",
    sources: { "PancakeV3Harness.sol": { content } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const built = output.contracts["PancakeV3Harness.sol"]?.PancakeV3Harness;
  if (built === undefined) throw new Error("no PancakeV3Harness in solc's output");
  return { abi: built.abi, bytecode: `0x${built.evm.bytecode.object}` };
}

interface PancakePool {
  name: string;
  address: Address;
  fee: number;
  tickSpacing: number;
  bounds: Set<number>;
}

let fx: V3Fixture;
let rpc: RpcClient;
let harness: Harness;
let harnessAddress: Address;
const pools: PancakePool[] = [];

const call = (functionName: string, args: readonly unknown[]) =>
  fx.send(harnessAddress, encodeFunctionData({ abi: harness.abi, functionName, args }));

/** An exact-input swap run by eth_call (nothing kept), or "revert". */
async function simulateSwap(pool: PancakePool, zeroForOne: boolean, amountIn: bigint) {
  const data = encodeFunctionData({
    abi: harness.abi,
    functionName: "swap",
    args: [pool.address, zeroForOne, amountIn, 0n],
  });
  try {
    const { data: answer } = await fx.client.call({ account: DEPLOYER, to: harnessAddress, data });
    const [amount0, amount1, sqrtPriceX96, tick, liquidity] = decodeFunctionResult({
      abi: harness.abi,
      functionName: "swap",
      data: answer as Hex,
    }) as readonly [bigint, bigint, bigint, number, bigint];
    return {
      amountIn: zeroForOne ? amount0 : amount1,
      amountOut: -(zeroForOne ? amount1 : amount0),
      sqrtPriceX96,
      tick,
      liquidity,
    };
  } catch (error) {
    if (error instanceof Error && /revert/i.test(error.message)) return "revert" as const;
    throw error;
  }
}

const readState = async (pool: PancakePool) => {
  const read = await readV3PoolState(rpc, pool.address, await fx.client.getBlockNumber());
  if (read === undefined) throw new Error(`no V3 state for ${pool.address}`);
  return { read, state: toPoolState(read) };
};

beforeAll(async () => {
  [fx, harness] = await Promise.all([startV3Fixture(), compileHarness()]);
  rpc = createRpcClient({ urls: [fx.anvil.rpcUrl], chainId: 31337, retryCount: 0, batch: true });
  const deployed = await fx.send(
    undefined,
    encodeDeployData({ abi: harness.abi, bytecode: harness.bytecode }),
  );
  const receipt = await fx.client.getTransactionReceipt({ hash: deployed });
  harnessAddress = (receipt.contractAddress as Address).toLowerCase() as Address;
  const tokens: FixtureToken[] = [await fx.deployToken("CAKE", 18), await fx.deployToken("USDT", 6)];
  for (const token of tokens) {
    await fx.send(
      token.address,
      encodeFunctionData({
        abi: devnetTokenAbi,
        functionName: "approve",
        args: [harnessAddress, maxUint256],
      }),
    );
  }
  const [token0, token1] = tokens.map((t) => t.address).sort() as [Address, Address];
  // PancakeSwap's own tiers: 0.25% at spacing 50 (negative ticks, at the word edge -12,800), and
  // 0.01% at spacing 1 (6,932 bitmap words to read, the word edge at 256).
  const specs = [
    { name: "0.25%", fee: 2500, tickSpacing: 50, startTick: -12_830, fullRange: true },
    { name: "0.01%", fee: 100, tickSpacing: 1, startTick: 250, fullRange: false },
  ];
  for (const [i, spec] of specs.entries()) {
    const sqrtPriceX96 = getSqrtRatioAtTick(spec.startTick) + 1234567n;
    const predicted = await fx.client.simulateContract({
      account: DEPLOYER,
      address: harnessAddress,
      abi: harness.abi,
      functionName: "deploy",
      args: [PANCAKE_POOL.bytecode, token0, token1, spec.fee, spec.tickSpacing, sqrtPriceX96],
    });
    await call("deploy", [PANCAKE_POOL.bytecode, token0, token1, spec.fee, spec.tickSpacing, sqrtPriceX96]);
    const address = (predicted.result as Address).toLowerCase() as Address;
    const pool: PancakePool = {
      name: spec.name,
      address,
      fee: spec.fee,
      tickSpacing: spec.tickSpacing,
      bounds: new Set(),
    };
    pools.push(pool);
    // A protocol fee fills slot0's uint32 feeProtocol (Uniswap's is a uint8).
    await call("setFeeProtocol", [address, 3300, 3200]);
    const prng = createPrng(77 + i);
    const s = spec.tickSpacing;
    const t = Math.floor(spec.startTick / s) * s;
    const ranges: [number, number][] = [];
    if (spec.fullRange) ranges.push([Math.ceil(MIN_TICK / s) * s, Math.floor(MAX_TICK / s) * s]);
    for (let n = 0; n < 30; n++) {
      const lower = t + prng.int(-300, 280) * s;
      ranges.push([lower, lower + prng.int(1, 80) * s]);
    }
    ranges.push([t - s, t + s], [t - 2 * s, t + 30 * s]);
    for (const [n, [lower, upper]] of ranges.entries()) {
      await call("mint", [address, lower, upper, BigInt(prng.int(1, 1000)) * 10n ** 15n]);
      pool.bounds.add(lower).add(upper);
      if (n === 15) await call("swap", [address, true, 10n ** 15n, 0n]);
    }
    // Burn one position whole (its ticks leave) and half of another.
    const [a, b] = [ranges[3] as [number, number], ranges[7] as [number, number]];
    await call("burn", [address, a[0], a[1], 0n]);
    const whole = (await fx.client.readContract({
      address,
      abi: PANCAKE_POOL.abi,
      functionName: "positions",
      args: [positionKey(harnessAddress, a[0], a[1])],
    })) as readonly bigint[];
    await call("burn", [address, a[0], a[1], whole[0] as bigint]);
    await call("burn", [address, b[0], b[1], 10n ** 14n]);
    await call("swap", [address, false, 10n ** 14n, 0n]);
  }
});

afterAll(async () => {
  await fx?.stop();
});

/** PositionKey.compute: the pool's key of a position. */
function positionKey(owner: Address, tickLower: number, tickUpper: number): Hex {
  return keccak256(encodePacked(["address", "int24", "int24"], [owner, tickLower, tickUpper]));
}

/** The pool as the chain holds it, by the pool's own ABI: slot0 whole, and each bound's tick. */
async function readChain(pool: PancakePool) {
  const read = (functionName: string, args: readonly unknown[] = []) =>
    fx.client.readContract({ address: pool.address, abi: PANCAKE_POOL.abi, functionName, args });
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
  return {
    sqrtPriceX96: slot0[0] as bigint,
    tick: slot0[1] as number,
    liquidity,
    ticks,
    feeProtocol: slot0[5] as number,
  };
}

describe("PancakeSwap V3", () => {
  test("behavior: readV3PoolState reads a PancakeSwap pool (uint32 feeProtocol in slot0) as the chain and its logs have it", async () => {
    for (const pool of pools) {
      const chain = await readChain(pool);
      // The layout differs from Uniswap's after the tick: 3300 for token0, 3200 for token1.
      expect(chain.feeProtocol).toBe(3300 + 3200 * 65536);
      const started = performance.now();
      const { read, state } = await readState(pool);
      const ms = performance.now() - started;
      const { feeProtocol: _, ...expected } = chain;
      expect({
        sqrtPriceX96: read.sqrtPriceX96,
        tick: read.tick,
        liquidity: read.liquidity,
        ticks: plainTicks(state.ticks),
      }).toEqual(expected);
      expect({ fee: read.fee, tickSpacing: read.tickSpacing }).toEqual({
        fee: pool.fee,
        tickSpacing: pool.tickSpacing,
      });
      expect(chain.ticks.length).toBeLessThan(pool.bounds.size);
      const rebuilt = await rebuildFromLogs(fx.client, pool.address, pancakePoolEventsAbi);
      expect(rebuilt.state).toEqual(expected);
      expect(rebuilt.counts.Swap).toBe(2);
      if (pool.tickSpacing === 1) expect(read.words.read).toBe(6932);
      console.log(
        `PancakeSwap ${pool.name}: ${chain.ticks.length} ticks in ${read.words.set} of ${read.words.read} bitmap words, read in ${ms.toFixed(0)} ms`,
      );
    }
  });

  test("behavior: swapExactInput equals the pool's own swap for every amount from 1 wei to more than the pool holds", async () => {
    const mismatches: unknown[] = [];
    let compared = 0;
    for (const [p, pool] of pools.entries()) {
      const { state } = await readState(pool);
      for (const zeroForOne of [true, false]) {
        const prng = createPrng(500 + p * 2 + (zeroForOne ? 1 : 0));
        const amounts = [1n, 2n, 3n];
        for (let a = 4; a < 2 ** 140; a *= 1.38)
          amounts.push(BigInt(Math.floor(a * (1 + prng.next() * 0.37))));
        const actual = await Promise.all(amounts.map((amount) => simulateSwap(pool, zeroForOne, amount)));
        let exhausted = 0;
        for (const [i, amount] of amounts.entries()) {
          const mine = trySwap(state, zeroForOne, amount);
          const expected =
            mine === "revert"
              ? mine
              : {
                  amountIn: mine.amountIn,
                  amountOut: mine.amountOut,
                  sqrtPriceX96: mine.sqrtPriceX96,
                  tick: mine.tick,
                  liquidity: mine.liquidity,
                };
          if (mine !== "revert" && mine.amountIn < amount) exhausted++;
          compared++;
          if (JSON.stringify(actual[i], bigintJson) !== JSON.stringify(expected, bigintJson)) {
            mismatches.push({ pool: pool.name, zeroForOne, amount, actual: actual[i], expected });
          }
        }
        expect(exhausted).toBeGreaterThan(10);
        expect(actual.filter((a) => a === "revert")).toEqual([]);
      }
    }
    expect(mismatches).toEqual([]);
    console.log(
      `PancakeSwap: ${compared} swaps simulated on the pool equal swapExactInput (amount in and out, price, tick, liquidity)`,
    );
  });

  test("behavior: real swaps leave the pool where swapExactInput says", async () => {
    for (const pool of pools) {
      let { state } = await readState(pool);
      for (const [i, zeroForOne] of [true, false, true, false].entries()) {
        const amount = amountCrossing(state, zeroForOne, 2 + 2 * i);
        const expected = swapExactInput(state, zeroForOne, amount);
        await call("swap", [pool.address, zeroForOne, amount, 0n]);
        const { feeProtocol: _, ticks: __, ...chain } = await readChain(pool);
        expect(chain).toEqual({
          sqrtPriceX96: expected.sqrtPriceX96,
          tick: expected.tick,
          liquidity: expected.liquidity,
        });
        state = {
          ...state,
          sqrtPriceX96: expected.sqrtPriceX96,
          tick: expected.tick,
          liquidity: expected.liquidity,
        };
      }
    }
  });
});

const trySwap = (state: V3PoolState, zeroForOne: boolean, amountIn: bigint): V3SwapResult | "revert" => {
  try {
    return swapExactInput(state, zeroForOne, amountIn);
  } catch {
    return "revert";
  }
};

const bigintJson = (_: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);
