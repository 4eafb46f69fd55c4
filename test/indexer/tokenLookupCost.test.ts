import { type ChainWriter, createChainWriter } from "@swapgraph/devnet/anvil/createChainWriter.js";
import { devnetTokenAbi, uniswapV2RouterAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import { readArtifact } from "@swapgraph/devnet/deploy/readArtifact.js";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import {
  type Address,
  createPublicClient,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  http,
  maxUint256,
  parseAbi,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { type FaultProxy, type SeenRequest, startFaultProxy } from "../chain/faultProxy.js";
import { createMemoryLogger } from "../graphql/support.js";
import { chainHead, mine, startTestDevnet, testClient } from "../support/devnet.js";
import { waitFor } from "../support/waitFor.js";

// What callers name in /api/quote and GraphQL: real ERC-20s the indexer has never seen, most
// without a pool, some with a pool on one or both DEXes.
const TOKENS = 300;
const WITH_ONE_POOL = 20;
const WITH_TWO_POOLS = 20;
const POOLED = WITH_ONE_POOL + WITH_TWO_POOLS;
const DECIMALS = [18, 6, 8, 0, 24] as const;
const POOL_TOKENS = 10n ** 24n;
const POOL_NATIVE = 10n ** 18n;
const pairAbi = parseAbi([
  "function getPair(address, address) view returns (address)",
  "function getReserves() view returns (uint112, uint112, uint32)",
]);

/** A deployed token as the chain holds it. */
interface Deployed {
  address: Address;
  name: string;
  symbol: string;
  decimals: number;
}

let devnet: Devnet;
let chain: DevnetChainInfo;
let writer: ChainWriter;
let config: NetworkConfig;
let proxy: FaultProxy;
let store: Store;
let indexing: Indexing;
/** The 300 looked up together, the pooled ones first. */
let tokens: Deployed[];
/** One more with a pool on the first DEX, and one without a pool (yet). */
let spare: { pooled: Deployed; plain: Deployed };
/** Pool addresses by token, as the factories report them. */
const poolsOf = new Map<Address, Address[]>();

/** Deploys `count` tokens (mined in blocks of a hundred: anvil's blocks hold 300M gas). */
async function deployTokens(count: number): Promise<Deployed[]> {
  const deployer = chain.deployer;
  const bytecode = readArtifact("DevnetToken").bytecode;
  const deployed: Deployed[] = [];
  for (let i = 0; i < count; i++) {
    const nonce = writer.reserveNonce(deployer);
    const token = {
      address: getContractAddress({ from: deployer, nonce: BigInt(nonce) }).toLowerCase() as Address,
      name: `Lookup Token ${i}`,
      symbol: `LKP${i}`,
      decimals: DECIMALS[i % DECIMALS.length]!,
    };
    const data = encodeDeployData({
      abi: devnetTokenAbi,
      bytecode,
      args: [token.name, token.symbol, token.decimals, 10n ** 30n],
    });
    await writer.send([{ from: deployer, data, gas: 3_000_000n, nonce }]);
    deployed.push(token);
    if (i % 100 === 99) await mine(chain.rpcUrl);
  }
  await mine(chain.rpcUrl);
  return deployed;
}

/** Adds liquidity for `token` against the wrapped native on the first `dexCount` DEXes; mined. */
async function addPools(token: Deployed, dexCount: number): Promise<Address[]> {
  const deployer = chain.deployer;
  const dexes = chain.dexes.slice(0, dexCount);
  for (const dex of dexes) {
    await writer.send([
      {
        from: deployer,
        to: token.address,
        data: encodeFunctionData({
          abi: devnetTokenAbi,
          functionName: "approve",
          args: [dex.router, maxUint256],
        }),
        gas: 100_000n,
      },
      {
        from: deployer,
        to: dex.router,
        value: POOL_NATIVE,
        data: encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: "addLiquidityETH",
          args: [token.address, POOL_TOKENS, 0n, 0n, deployer, maxUint256],
        }),
        gas: 5_000_000n,
      },
    ]);
  }
  await mine(chain.rpcUrl);
  await writer.assertPoolEmpty();
  const reader = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
  const pools: Address[] = [];
  for (const dex of dexes) {
    const pool = await reader.readContract({
      address: dex.factory,
      abi: pairAbi,
      functionName: "getPair",
      args: [token.address, chain.wrapped],
    });
    expect(pool).not.toMatch(/^0x0{40}$/);
    pools.push(pool.toLowerCase() as Address);
  }
  poolsOf.set(token.address, pools);
  return pools;
}

async function chainReserves(pool: Address): Promise<{ reserve0: bigint; reserve1: bigint }> {
  const reader = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
  const [reserve0, reserve1] = await reader.readContract({
    address: pool,
    abi: pairAbi,
    functionName: "getReserves",
  });
  return { reserve0, reserve1 };
}

/** What reached `through` while `run` ran, and what `run` returned. */
async function counted<T>(
  run: () => Promise<T>,
  through: FaultProxy = proxy,
): Promise<{ result: T; ethCalls: number; seen: SeenRequest[] }> {
  const from = through.seen.length;
  const result = await run();
  const seen = through.seen.slice(from);
  return { result, ethCalls: seen.filter((r) => r.method === "eth_call").length, seen };
}

/** Looks the addresses up 25 at a time, as a busy API does (the lookup queue holds them all). */
async function lookUp(views: Indexing["views"], addresses: readonly Address[]): Promise<unknown[]> {
  const found: unknown[] = [];
  for (let i = 0; i < addresses.length; i += 25) {
    found.push(
      ...(await Promise.all(
        addresses.slice(i, i + 25).map((address) => views.resolveTokenAddress("bsc", address)),
      )),
    );
  }
  return found;
}

beforeAll(async () => {
  devnet = await startTestDevnet({ swapsPerNetwork: 40, traders: 8 });
  chain = devnet.chains[0]!;
  writer = createChainWriter(chain.rpcUrl);
  await writer.syncNonces([chain.deployer]);
  await testClient(chain.rpcUrl).setBalance({ address: chain.deployer, value: 10n ** 24n });
  const deployed = await deployTokens(TOKENS + 2);
  tokens = deployed.slice(0, TOKENS);
  spare = { pooled: deployed[TOKENS]!, plain: deployed[TOKENS + 1]! };
  for (const [i, token] of tokens.slice(0, POOLED).entries())
    await addPools(token, i < WITH_ONE_POOL ? 1 : 2);
  await addPools(spare.pooled, 1);
  proxy = await startFaultProxy(chain.rpcUrl);
  // Indexing starts after the pools were made: no Sync log tells the indexer of them.
  config = { ...devnet.networks[0]!, rpcUrls: [proxy.url], startBlock: (await chainHead(chain.rpcUrl)) + 1n };
  store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  indexing = createIndexing({ networks: [config], store, log: createMemoryLogger("warn").logger });
  indexing.start();
  await waitFor(() => indexing.views.status("bsc").ready, 120_000, "bsc indexed");
}, 240_000);

afterAll(async () => {
  await indexing?.stop();
  await store?.close();
  await proxy?.close();
  await devnet?.stop();
});

describe("cost of token lookups", () => {
  test("behavior: 300 distinct real tokens cost one eth_call each without a pool and two with pools", async () => {
    const plain = tokens.slice(POOLED);
    const pooled = tokens.slice(0, POOLED);
    const withoutPools = await counted(() =>
      lookUp(
        indexing.views,
        plain.map((t) => t.address),
      ),
    );
    const withPools = await counted(() =>
      lookUp(
        indexing.views,
        pooled.map((t) => t.address),
      ),
    );
    const each = (n: number, count: number) => (n / count).toFixed(2);
    console.info(
      `token lookups: ${withoutPools.ethCalls} eth_calls for ${plain.length} tokens without a pool ` +
        `(${each(withoutPools.ethCalls, plain.length)} each), ${withPools.ethCalls} for ${pooled.length} ` +
        `with pools (${each(withPools.ethCalls, pooled.length)} each); ` +
        `${withoutPools.seen.length + withPools.seen.length} JSON-RPC calls in all`,
    );

    // The answers are the chain's, and only the pooled tokens and their pools are stored, with
    // the pools' reserves.
    expect(withoutPools.result).toEqual(plain);
    expect(withPools.result).toEqual(pooled);
    const stored = new Set((await store.listTokens("bsc")).map((token) => token.address));
    expect(pooled.filter((token) => !stored.has(token.address))).toEqual([]);
    expect(plain.filter((token) => stored.has(token.address))).toEqual([]);
    const pairs = new Set((await store.listPairs("bsc")).map((pair) => pair.address));
    const pools = pooled.flatMap((token) => poolsOf.get(token.address)!);
    expect(pools).toHaveLength(WITH_ONE_POOL + 2 * WITH_TWO_POOLS);
    expect(pools.filter((pool) => !pairs.has(pool))).toEqual([]);
    const reserves = new Map((await store.listReserves("bsc")).map((row) => [row.pair, row]));
    for (const pool of pools) expect(reserves.get(pool)).toMatchObject(await chainReserves(pool));

    expect(withoutPools.ethCalls).toBe(plain.length);
    expect(withPools.ethCalls).toBe(2 * pooled.length);
    expect(withoutPools.ethCalls + withPools.ethCalls).toBeLessThanOrEqual(2 * TOKENS);
  });

  test("behavior: a replica reads a token's metadata with one eth_call", async () => {
    const replica = createIndexing({
      networks: [config],
      store,
      log: createMemoryLogger("warn").logger,
      role: "api",
    });
    replica.start();
    try {
      const probe = tokens[POOLED]!.address;
      await waitFor(
        () =>
          replica.views
            .resolveTokenAddress("bsc", probe)
            .then(() => true)
            .catch(() => false),
        30_000,
        "the replica's token resolver",
      );
      const unknown = tokens.slice(POOLED + 1, POOLED + 101);
      const { result, ethCalls } = await counted(() =>
        lookUp(
          replica.views,
          unknown.map((t) => t.address),
        ),
      );
      expect(result).toEqual(unknown);
      expect(ethCalls).toBe(unknown.length);
    } finally {
      await replica.stop();
    }
  });

  test("behavior: a node without the checkpoint's state: the pools are checked and their reserves read at latest", async () => {
    const checkpoint = (await store.getCheckpoint("bsc"))!.blockNumber;
    proxy.rules.push({
      match: (r) => r.method === "eth_call" && r.params[1] !== "latest",
      fault: {
        kind: "rpcError",
        code: -32000,
        message: "missing trie node 0xabc (path ) state is not available",
      },
    });
    try {
      const { result, seen } = await counted(() =>
        indexing.views.resolveTokenAddress("bsc", spare.pooled.address),
      );
      expect(result).toEqual(spare.pooled);
      // Metadata and pools at latest, the checks at the checkpoint (refused), then at latest.
      expect(seen.filter((r) => r.method === "eth_call").map((r) => [r.params[1], r.outcome])).toEqual([
        ["latest", "forward"],
        [`0x${checkpoint.toString(16)}`, "rpcError"],
        ["latest", "forward"],
      ]);
    } finally {
      proxy.rules.length = 0;
    }
    const [pool] = poolsOf.get(spare.pooled.address)!;
    const row = (await store.listReserves("bsc")).find((r) => r.pair === pool);
    expect(row).toMatchObject(await chainReserves(pool!));
  });

  test("behavior: a pool younger than the checkpoint is checked at latest and starts at 0/0 (its Sync logs follow)", async () => {
    // An indexer that does not follow the head for now: its checkpoint stays behind the new pool.
    const lagging = await startFaultProxy(chain.rpcUrl);
    const lagStore = createSqliteStore({ path: ":memory:" });
    await lagStore.migrate();
    const lagIndexing = createIndexing({
      networks: [{ ...config, rpcUrls: [lagging.url], pollIntervalMs: 600_000 }],
      store: lagStore,
      log: createMemoryLogger("warn").logger,
    });
    lagIndexing.start();
    try {
      await waitFor(() => lagIndexing.views.status("bsc").ready, 60_000, "the lagging indexer at the head");
      const checkpoint = (await lagStore.getCheckpoint("bsc"))!.blockNumber;
      const [pool] = await addPools(spare.plain, 1);
      expect(await chainHead(chain.rpcUrl)).toBeGreaterThan(checkpoint);

      const { result, ethCalls } = await counted(
        () => lagIndexing.views.resolveTokenAddress("bsc", spare.plain.address),
        lagging,
      );
      expect(result).toEqual(spare.plain);
      // Two reads, then readPairInfo's four calls at latest and the reserves at the checkpoint.
      expect(ethCalls).toBe(2 + 4 + 1);
      expect((await lagStore.listPairs("bsc")).map((pair) => pair.address)).toContain(pool);
      expect((await lagStore.listReserves("bsc")).find((row) => row.pair === pool)).toMatchObject({
        blockNumber: checkpoint,
        reserve0: 0n,
        reserve1: 0n,
      });
    } finally {
      await lagIndexing.stop();
      await lagStore.close();
      await lagging.close();
    }
  });
});
