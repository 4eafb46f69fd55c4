import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetTokenAbi, uniswapV2RouterAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import { type Devnet, type StartDevnetOptions, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { devnetV3RouterAbi } from "@swapgraph/devnet/v3/v3Abis.js";
import {
  type Address,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  maxUint256,
} from "viem";
import { inject } from "vitest";
import { NATIVE } from "../../src/domain/types.js";
import { startCachedDevnet } from "./devnetCache.js";

/** Options of startTestDevnet: startDevnet's, and whether the run's devnet cache may serve it. */
export interface StartTestDevnetOptions extends StartDevnetOptions {
  /**
   * Default true: built once per run and loaded from the run's cache by every file asking for the
   * same options (test/support/devnetCache.ts); false builds a fresh one (a test of the builder
   * itself). A devnet that trades live or has over 1,000 swaps a network is never cached, nor any
   * with SWAPGRAPH_TEST_DEVNET_CACHE=off.
   */
  cache?: boolean;
}

/**
 * A small, fast devnet for a test file: one network (bsc), 300 swaps by 60 traders over 7 days,
 * no live trading, its manifest in a fresh temp dir. Share one per test file and isolate tests
 * with snapshot/revert (a file never changes a cached devnet's saved state, only its own anvil).
 */
export function startTestDevnet(options: StartTestDevnetOptions = {}): Promise<Devnet> {
  const { cache = true, ...rest } = options;
  const full: StartDevnetOptions & { dataDir: string } = {
    networks: ["bsc"],
    swapsPerNetwork: 300,
    traders: 60,
    liveIntervalMs: 0,
    ...rest,
    dataDir: rest.dataDir ?? mkdtempSync(join(tmpdir(), "swapgraph-devnet-")),
  };
  // SWAPGRAPH_TEST_DEVNET_CACHE=off builds every devnet afresh (to tell a cache fault from a test's).
  const cacheDir = process.env.SWAPGRAPH_TEST_DEVNET_CACHE === "off" ? undefined : inject("devnetCacheDir");
  // A long chain's whole-state dump (every block's state) takes longer to write and load than a
  // build (3,000 swaps: over 20 s to load); a scale profile is a test of its own build.
  const cacheable = (full.swapsPerNetwork ?? 3000) <= 1_000 && full.profile === undefined;
  if (!cache || !cacheable || cacheDir === undefined || (full.liveIntervalMs ?? 0) > 0)
    return startDevnet(full);
  return startCachedDevnet(cacheDir, full, startDevnet);
}

const clients = new Map<string, ReturnType<typeof createAnvilClient>>();

function createAnvilClient(rpcUrl: string) {
  return createTestClient({ mode: "anvil", cacheTime: 0, transport: http(rpcUrl, { retryCount: 0 }) });
}

/** A viem test client for an anvil URL (one per URL). */
export function testClient(rpcUrl: string): ReturnType<typeof createAnvilClient> {
  let client = clients.get(rpcUrl);
  if (client === undefined) {
    client = createAnvilClient(rpcUrl);
    clients.set(rpcUrl, client);
  }
  return client;
}

/** Takes an evm_snapshot; revert to it with `revert` (anvil drops a snapshot once reverted to). */
export function snapshot(rpcUrl: string): Promise<Hex> {
  return testClient(rpcUrl).snapshot();
}

/** Reverts the chain to a snapshot taken with `snapshot`. */
export async function revert(rpcUrl: string, id: Hex): Promise<void> {
  await testClient(rpcUrl).revert({ id });
}

/** The chain's head block number, asked fresh (no client cache). */
export async function chainHead(rpcUrl: string): Promise<bigint> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  return BigInt(((await response.json()) as { result: string }).result);
}

/** Mines one block with everything pending, at `timestamp` (unix seconds) when given. */
export async function mine(rpcUrl: string, options: { timestamp?: number } = {}): Promise<void> {
  const client = testClient(rpcUrl);
  if (options.timestamp !== undefined)
    await client.setNextBlockTimestamp({ timestamp: BigInt(options.timestamp) });
  await client.mine({ blocks: 1 });
}

/** One swap to send through a devnet router in a test. */
export interface TestSwap {
  /** Symbols (listed or unlisted), addresses, or "" for the native coin at either end. */
  path: string[];
  amountIn: bigint;
  /** DEX name or index (default: the first DEX). */
  dex?: string | number;
  /** Default: the first trader. */
  trader?: Address;
  /** Mine a block right after sending (default true), optionally at a timestamp. */
  mine?: boolean | { timestamp: number };
}

/**
 * Sends one router swap from an unlocked trader account (approving the router first) and mines
 * it unless told not to. Returns the swap's transaction hash.
 */
export async function sendSwap(chain: DevnetChainInfo, swap: TestSwap): Promise<Hash> {
  const dex =
    typeof swap.dex === "number"
      ? chain.dexes[swap.dex]
      : chain.dexes.find((d) => d.name === (swap.dex ?? chain.dexes[0]?.name));
  if (dex === undefined) throw new Error(`sendSwap: no DEX ${String(swap.dex)} on ${chain.network}`);
  const trader = swap.trader ?? (chain.traders[0] as Address);
  const first = swap.path[0];
  const last = swap.path.at(-1);
  const nativeIn = first === NATIVE;
  const nativeOut = last === NATIVE;
  const path = swap.path.map((ref): Address => {
    if (ref === NATIVE) return chain.wrapped;
    const address = chain.tokens[ref] ?? chain.unlisted[ref] ?? ref;
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`sendSwap: unknown token ${ref}`);
    return address.toLowerCase() as Address;
  });
  const deadline = 2n ** 40n;
  const wallet = createWalletClient({ account: trader, transport: http(chain.rpcUrl, { retryCount: 0 }) });
  // Explicit gas: with --no-mining, estimating against the pending approval would fail.
  const send = (to: Address, data: Hex, value = 0n) =>
    wallet.sendTransaction({ chain: null, to, data, value, gas: 1_500_000n });
  if (!nativeIn) {
    await send(
      path[0] as Address,
      encodeFunctionData({ abi: devnetTokenAbi, functionName: "approve", args: [dex.router, maxUint256] }),
    );
  }
  const data = nativeIn
    ? encodeFunctionData({
        abi: uniswapV2RouterAbi,
        functionName: "swapExactETHForTokens",
        args: [0n, path, trader, deadline],
      })
    : encodeFunctionData({
        abi: uniswapV2RouterAbi,
        functionName: nativeOut ? "swapExactTokensForETH" : "swapExactTokensForTokens",
        args: [swap.amountIn, 0n, path, trader, deadline],
      });
  const hash = await send(dex.router, data, nativeIn ? swap.amountIn : 0n);
  const mineOption = swap.mine ?? true;
  if (mineOption !== false) await mine(chain.rpcUrl, mineOption === true ? {} : mineOption);
  return hash;
}

/**
 * Sends one swap of `amountIn` of `tokenIn` through a V3 pool of the devnet (its helper router,
 * approved first) from an unlocked trader and mines it. Returns the swap's transaction hash.
 */
export async function sendV3Swap(
  chain: DevnetChainInfo,
  swap: { pool: Address; tokenIn: Address; amountIn: bigint; trader?: Address },
): Promise<Hash> {
  const v3 = chain.v3;
  const pool = v3?.pools.find((p) => p.address === swap.pool.toLowerCase());
  if (v3 === undefined || pool === undefined) throw new Error(`sendV3Swap: no V3 pool ${swap.pool}`);
  const trader = swap.trader ?? (chain.traders[0] as Address);
  const wallet = createWalletClient({ account: trader, transport: http(chain.rpcUrl, { retryCount: 0 }) });
  const send = (to: Address, data: Hex) => wallet.sendTransaction({ chain: null, to, data, gas: 1_500_000n });
  const tokenIn = swap.tokenIn.toLowerCase() as Address;
  await send(
    tokenIn,
    encodeFunctionData({ abi: devnetTokenAbi, functionName: "approve", args: [v3.router, maxUint256] }),
  );
  const hash = await send(
    v3.router,
    encodeFunctionData({
      abi: devnetV3RouterAbi,
      functionName: "exactInputSingle",
      args: [pool.address, tokenIn === pool.token0, swap.amountIn, 0n, trader, 0n],
    }),
  );
  await mine(chain.rpcUrl);
  return hash;
}
