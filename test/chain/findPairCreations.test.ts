import {
  createProviderEmulator,
  type ProviderEmulator,
} from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import type { ProviderUsage } from "@swapgraph/devnet/emulator/createUsageMeter.js";
import type { ProviderFaults } from "@swapgraph/devnet/emulator/providerFaults.js";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import { createPublicClient, createWalletClient, http, parseAbi, parseAbiItem, parseEventLogs } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createRpcClient, type RpcClient } from "../../src/chain/createRpcClient.js";
import { CREATION_LOOKUP_LIMITS } from "../../src/chain/creationLookupLimits.js";
import { findPairCreations } from "../../src/chain/findPairCreations.js";
import type { Address, Hash, Pair, PairCreation } from "../../src/domain/types.js";
import { mine, startTestDevnet } from "../support/devnet.js";

/**
 * findPairCreations against a real chain (the shared demo devnet, V2 pairs and V3 pools, some
 * created during its week) through the provider emulator: as a provider without caps, under each
 * provider's eth_getLogs range cap, and on a capped node without old state. Every creation must
 * equal the factories' logs read straight from anvil, at a bounded number of calls.
 */
let devnet: Devnet;
let rpcUrl: string;
let chainId: number;
let head: bigint;
/** Every pool of the configured factories, as their creation logs name them. */
let pairs: Pair[];
/** The factories' logs read straight from the chain, by pool. */
let expected: Map<Address, PairCreation>;
const emulators: ProviderEmulator[] = [];
// The factories' events as their sources declare them (this file's own reading, not src's ABIs).
const factoryAbi = parseAbi([
  "function getPair(address, address) view returns (address)",
  "function createPair(address, address) returns (address)",
]);
const pairCreated = parseAbiItem(
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256 index)",
);
const poolCreated = parseAbiItem(
  "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)",
);

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 23 });
  const chain = devnet.chains[0]!;
  rpcUrl = chain.rpcUrl;
  chainId = chain.chainId;
  const anvil = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  head = await anvil.getBlockNumber({ cacheTime: 0 });
  const factories = [...chain.dexes.map((dex) => dex.factory), ...(chain.v3 ? [chain.v3.factory] : [])];
  const logs = await anvil.getLogs({
    address: factories,
    events: [pairCreated, poolCreated],
    fromBlock: 0n,
    toBlock: head,
  });
  pairs = [];
  expected = new Map();
  for (const log of logs) {
    const pool = (log.eventName === "PairCreated" ? log.args.pair : log.args.pool)!.toLowerCase() as Address;
    pairs.push({
      address: pool,
      dex: "any",
      factory: log.address.toLowerCase() as Address,
      token0: log.args.token0!.toLowerCase() as Address,
      token1: log.args.token1!.toLowerCase() as Address,
      feeBps: 30,
    });
    const block = await anvil.getBlock({ blockNumber: log.blockNumber });
    expected.set(pool, {
      blockNumber: log.blockNumber,
      timestamp: Number(block.timestamp),
      txHash: log.transactionHash.toLowerCase() as Hash,
    });
  }
});

afterAll(async () => {
  CREATION_LOOKUP_LIMITS.clear();
  for (const emulator of emulators) await emulator.close();
  await devnet?.stop();
});

// A later test's emulator may reuse an earlier one's port: no limit learned carries over.
beforeEach(() => CREATION_LOOKUP_LIMITS.clear());

/** An emulator with `faults` in front of the devnet, and the indexer's kind of client through it. */
async function provider(faults: ProviderFaults): Promise<{ emulator: ProviderEmulator; client: RpcClient }> {
  const emulator = await createProviderEmulator({ upstream: rpcUrl, faults });
  emulators.push(emulator);
  const client = createRpcClient({
    urls: [emulator.url],
    chainId,
    name: "bsc",
    batch: true,
    retryDelayMs: 20,
    cooldownMs: 100,
  });
  return { emulator, client };
}

const callsOf = (usage: ProviderUsage, method: string) => usage.byMethod.get(method)?.calls ?? 0;

describe("findPairCreations", () => {
  test("behavior: a provider without a range cap: one eth_getLogs over the whole chain for every pool; block, transaction and time equal the factories' logs", async () => {
    expect(pairs.length).toBeGreaterThanOrEqual(10);
    // Pools created during the week, not only at the deployment.
    expect(new Set([...expected.values()].map((c) => c.blockNumber)).size).toBeGreaterThan(3);
    const { emulator, client } = await provider({});
    expect(await findPairCreations(client, pairs)).toEqual(expected);
    const usage = emulator.usage();
    // anvil sends each log's blockTimestamp: no header read.
    expect(usage.total.calls).toBe(1);
    expect(callsOf(usage, "eth_getLogs")).toBe(1);
  });

  for (const [style, blocks] of [
    ["quicknode", 8],
    ["infura", 4],
    ["alchemy", 2],
  ] as const) {
    test(`behavior: ${style}'s range cap (${blocks} blocks): the whole chain is asked once, then creation blocks are bisected on the pools' nonces; every field equals the factories' logs, at most log2(head / cap) + 1 calls a pool`, async () => {
      const { emulator, client } = await provider({ logRange: { blocks, style } });
      const warnings: string[] = [];
      const log = { warn: (_: unknown, message: string) => warnings.push(message) };
      expect(await findPairCreations(client, pairs, { log })).toEqual(expected);
      const usage = emulator.usage();
      const rounds = Math.ceil(Math.log2(Number(head + 1n) / blocks));
      expect(usage.faults.logRange).toBe(1);
      // One read a cap below the top first (a young pool is done with it), then bisection.
      expect(callsOf(usage, "eth_getTransactionCount")).toBeLessThanOrEqual(pairs.length * (rounds + 1));
      expect(callsOf(usage, "eth_blockNumber")).toBe(1);
      // Pools created near one another share a log read.
      expect(callsOf(usage, "eth_getLogs") - 1).toBeLessThanOrEqual(Math.ceil(pairs.length / 4));
      expect(usage.total.calls).toBeLessThanOrEqual(pairs.length * (rounds + 2) + 2);
      expect(warnings).toEqual([expect.stringContaining("refuses eth_getLogs over the whole chain")]);

      // The URL's refusal is remembered: the next lookup searches at once.
      emulator.reset();
      const one = pairs.at(-1)!;
      expect(await findPairCreations(client, [one], { log })).toEqual(
        new Map([[one.address, expected.get(one.address)!]]),
      );
      const again = emulator.usage();
      expect(again.faults.logRange).toBe(0);
      expect(callsOf(again, "eth_getLogs")).toBe(1);
      expect(callsOf(again, "eth_getTransactionCount")).toBeLessThanOrEqual(rounds + 1);
      expect(warnings.length).toBe(1);
    });
  }

  test("behavior: a provider that lowers its cap below the span learned: the refused log reads shrink to the span it names and the search goes on", async () => {
    const { emulator, client } = await provider({ logRange: { blocks: 3, style: "quicknode" } });
    // Learned earlier at a wider cap than the provider now allows.
    CREATION_LOOKUP_LIMITS.set(new URL(emulator.url).href, {
      wideRefused: true,
      span: 40,
      noOldState: false,
    });
    expect(await findPairCreations(client, pairs)).toEqual(expected);
    const usage = emulator.usage();
    expect(usage.faults.logRange).toBeGreaterThan(0);
    expect(CREATION_LOOKUP_LIMITS.get(new URL(emulator.url).href)?.span).toBe(3);
    const rounds = Math.ceil(Math.log2(Number(head + 1n) / 3));
    expect(callsOf(usage, "eth_getTransactionCount")).toBeLessThanOrEqual(pairs.length * (rounds + 1));
  });

  test("error: a capped node without old state: the fields stay unknown, said once; later lookups send no call", async () => {
    const { emulator, client } = await provider({
      logRange: { blocks: 2, style: "alchemy" },
      prunedState: { blocks: 16 },
    });
    const warnings: string[] = [];
    const log = { warn: (_: unknown, message: string) => warnings.push(message) };
    expect(await findPairCreations(client, pairs, { log })).toEqual(new Map());
    const usage = emulator.usage();
    expect(usage.faults.logRange).toBe(1);
    expect(usage.faults.prunedState).toBeGreaterThan(0);
    // Two rounds at most: the read a cap below the head (its state is kept), then the first
    // answer without state ends the search.
    expect(callsOf(usage, "eth_getTransactionCount")).toBeLessThanOrEqual(2 * pairs.length);
    expect(warnings).toEqual([
      expect.stringContaining("refuses eth_getLogs over the whole chain"),
      expect.stringContaining("no state at old blocks"),
    ]);
    emulator.reset();
    expect(await findPairCreations(client, pairs, { log })).toEqual(new Map());
    expect(emulator.usage().total.calls).toBe(0);
    expect(warnings.length).toBe(2);
  });
  test("behavior: where the indexer first saw a pool starts its search: one nonce read for a pool created shortly before, no head read", async () => {
    const { emulator, client } = await provider({ logRange: { blocks: 4, style: "infura" } });
    // The youngest pools of the week, each as if first seen logging 2 blocks after its creation.
    const young = [...pairs]
      .sort((a, b) => Number(expected.get(b.address)!.blockNumber - expected.get(a.address)!.blockNumber))
      .slice(0, 3);
    const seenAt = new Map(young.map((pair) => [pair.address, expected.get(pair.address)!.blockNumber + 2n]));
    expect(await findPairCreations(client, young, { seenAt })).toEqual(
      new Map(young.map((pair) => [pair.address, expected.get(pair.address)!])),
    );
    const usage = emulator.usage();
    expect(callsOf(usage, "eth_getTransactionCount")).toBe(young.length);
    expect(callsOf(usage, "eth_blockNumber")).toBe(0);
    expect(callsOf(usage, "eth_getLogs")).toBeLessThanOrEqual(1 + young.length);
  });

  test("behavior: a pool created at the head (as the indexer meets new pools when following it) costs one nonce read and one log read", async () => {
    const chain = devnet.chains[0]!;
    const anvil = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
    const factory = chain.dexes[0]!.factory;
    const tokens = [...Object.values(chain.tokens), ...Object.values(chain.unlisted)];
    let pairOf: [Address, Address] | undefined;
    for (const a of tokens) {
      for (const b of tokens) {
        if (pairOf !== undefined || a >= b) continue;
        const existing = await anvil.readContract({
          address: factory,
          abi: factoryAbi,
          functionName: "getPair",
          args: [a, b],
        });
        if (/^0x0{40}$/.test(existing)) pairOf = [a, b];
      }
    }
    expect(pairOf).toBeDefined();
    const wallet = createWalletClient({
      account: chain.deployer,
      transport: http(rpcUrl, { retryCount: 0 }),
    });
    const hash = await wallet.writeContract({
      chain: null,
      address: factory,
      abi: factoryAbi,
      functionName: "createPair",
      args: pairOf!,
      gas: 5_000_000n,
    });
    await mine(rpcUrl);
    const receipt = await anvil.getTransactionReceipt({ hash });
    const [created] = parseEventLogs({ abi: [pairCreated], logs: receipt.logs });
    const block = await anvil.getBlock({ blockNumber: receipt.blockNumber });
    const pool = created!.args.pair.toLowerCase() as Address;
    const pair: Pair = {
      address: pool,
      dex: "any",
      factory,
      token0: created!.args.token0.toLowerCase() as Address,
      token1: created!.args.token1.toLowerCase() as Address,
      feeBps: 30,
    };

    const { emulator, client } = await provider({ logRange: { blocks: 8, style: "quicknode" } });
    expect(await findPairCreations(client, [pair])).toEqual(
      new Map([
        [pool, { blockNumber: receipt.blockNumber, timestamp: Number(block.timestamp), txHash: hash }],
      ]),
    );
    const usage = emulator.usage();
    expect(callsOf(usage, "eth_getTransactionCount")).toBe(1);
    expect(callsOf(usage, "eth_getLogs")).toBe(2);
    expect(usage.total.calls).toBe(4);
  });
});
