import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createPublicClient, formatUnits, getAddress, http, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import type { Address } from "../../src/domain/types.js";
import type { Store } from "../../src/store/types.js";
import { MAX_EVENT_BLOCKS } from "../../src/views/answers/readDexScreener.js";
import { mine, revert, sendSwap, snapshot, startTestDevnet } from "../support/devnet.js";
import { sendLiquidityChanges } from "../support/liquidityChanges.js";
import { openApiExample, openApiSchema } from "../support/openApiSchema.js";
import {
  expectedJson,
  readDexScreenerEventsFromChain,
  readReservesAt,
} from "../support/readDexScreenerEventsFromChain.js";
import { readOncePerChainState } from "../support/readOncePerChainState.js";
import { createTestStores, type TestStore } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";
import { startServer, type TestServer } from "./support.js";

// The real path: the demo devnet (V2 and V3 pools, a week of trading, liquidity added and
// removed here) -> indexer -> store (SQLite and PostgreSQL) -> the HTTP server, each answer
// validated against schema/openapi.yaml's JSON Schema written from the DEX Screener Adapter Specs and compared with
// the chain's own logs (eth_getLogs), signers (eth_getTransaction), reserves (the Syncs, and
// getReserves at the block) and decimals (eth_call), decimalized with viem's formatUnits.
const silent = { info() {}, warn() {}, error() {} };
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validators = {
  latestBlock: ajv.compile(openApiSchema("DexScreenerLatestBlock")),
  asset: ajv.compile(openApiSchema("DexScreenerAsset")),
  pair: ajv.compile(openApiSchema("DexScreenerPair")),
  events: ajv.compile(openApiSchema("DexScreenerEvents")),
};
// The spec's own example answers (Adapter Specs v1.1), as /openapi.json shows them.
const SPEC_EXAMPLES = {
  latestBlock: openApiExample("/dexscreener/{network}/latest-block"),
  asset: openApiExample("/dexscreener/{network}/asset"),
  pair: openApiExample("/dexscreener/{network}/pair") as { pair: Record<string, unknown> },
  events: openApiExample("/dexscreener/{network}/events") as { events: Record<string, unknown>[] },
};
type Validator = (typeof validators)[keyof typeof validators];

function expectValid(validate: Validator, body: unknown): void {
  const valid = validate(body);
  expect(valid ? [] : validate.errors).toEqual([]);
}

let devnet: Devnet;
let chain: DevnetChainInfo;
let config: NetworkConfig;
const clientOf = () => createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });

/** What the chain says a range's events are: one reading per range and branch, shared by both stores' tests. */
const chainEventsOf = (fromBlock: bigint, toBlock: bigint) =>
  readOncePerChainState(
    config.rpcUrls[0]!,
    `dexscreener:${fromBlock}`,
    () => readDexScreenerEventsFromChain(config, fromBlock, toBlock),
    toBlock,
  );

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 47 });
  chain = devnet.chains[0]!;
  // A short finality depth: most of the history is settled (answers of it are kept for good).
  config = { ...devnet.networks[0]!, pollIntervalMs: 100, startBlock: 2n, windowDays: 30, finalityDepth: 4 };
  const dex = chain.dexes[0]!.name;
  const pool = chain.pools.find((p) => p.dex === dex && !p.thin && !p.wash)!.address;
  // An exit and a join in one block (two events of a pair in a block: reserves after each).
  await sendLiquidityChanges(chain, [
    { kind: "remove", pool, bps: 1_000n, to: chain.traders[1]! },
    { kind: "add", pool, account: chain.traders[2]!, bps: 100n },
  ]);
  await mine(chain.rpcUrl);
}, 180_000);

afterAll(async () => {
  await devnet?.stop();
});

describe("the schemas written from the spec", () => {
  test("behavior: the spec's recorded examples validate, and what the spec forbids does not", () => {
    expectValid(validators.latestBlock, SPEC_EXAMPLES.latestBlock);
    expectValid(validators.asset, SPEC_EXAMPLES.asset);
    expectValid(validators.pair, SPEC_EXAMPLES.pair);
    expectValid(validators.events, SPEC_EXAMPLES.events);
    const swap = SPEC_EXAMPLES.events.events[0];
    for (const bad of [
      { ...swap, priceNative: 0 },
      { ...swap, priceNative: "0.000" },
      { ...swap, asset1In: 5 },
      { ...swap, asset0Out: "1" },
      { ...swap, eventType: "trade" },
      { ...swap, asset0In: "1e5" },
      { ...swap, block: { blockNumber: 10, blockTimestamp: 1673319600000 } },
    ]) {
      expect(validators.events({ events: [bad] }), JSON.stringify(bad)).toBe(false);
    }
    expect(validators.pair({ pair: { ...SPEC_EXAMPLES.pair.pair, dexKey: undefined } })).toBe(false);
  });
});

describe.each(createTestStores())("the DEX Screener adapter on $name", (testStore: TestStore) => {
  let store: Store;
  let indexing: Indexing;
  let api: TestServer;

  const indexed = () => indexing.views.status(config.name).indexedBlock!;
  const caughtUp = () =>
    waitUntilIndexed(indexing.views, config.name, { to: { rpcUrl: config.rpcUrls[0]! } });
  /** The adapter's events of a range, and what the chain says they are. */
  async function compareEvents(fromBlock: bigint, toBlock: bigint) {
    const answer = await api.call(`/dexscreener/bsc/events?fromBlock=${fromBlock}&toBlock=${toBlock}`);
    expect(answer.status).toBe(200);
    expectValid(validators.events, answer.body);
    const chainEvents = await chainEventsOf(fromBlock, toBlock);
    const expected = chainEvents.events.map(expectedJson).filter((event) => event !== undefined);
    return {
      answer,
      served: (answer.body as { events: Record<string, unknown>[] }).events,
      expected,
      chainEvents,
    };
  }

  beforeAll(async () => {
    store = await testStore.open();
    indexing = createIndexing({ networks: [config], store, log: silent });
    api = await startServer(indexing.views);
    indexing.start();
    await caughtUp();
  }, 180_000);

  afterAll(async () => {
    await api?.close();
    await indexing?.stop();
    await store?.close();
    await testStore.cleanup();
  });

  test("behavior: latest-block is the indexed block, with the chain's timestamp and the freshness headers", async () => {
    const { status, body, headers } = await api.call("/dexscreener/bsc/latest-block");
    expect(status).toBe(200);
    expectValid(validators.latestBlock, body);
    const block = await clientOf().getBlock({ blockNumber: indexed() });
    expect(body).toEqual({
      block: { blockNumber: Number(block.number), blockTimestamp: Number(block.timestamp) },
    });
    expect(headers.get("x-indexed-block")).toBe(block.number.toString());
    expect(headers.get("x-data-age")).toMatch(/^[0-9]+$/);
  });

  test("behavior: events of the whole history equal the chain's Swap, Mint and Burn logs, reserves and prices", async () => {
    const { served, expected, chainEvents } = await compareEvents(config.startBlock!, indexed());
    expect(served).toEqual(expected);
    // Not vacuous: more than one store page (streamed), every kind, V2 and V3 pools.
    expect(served.length).toBeGreaterThan(1_000);
    expect(new Set(served.map((event) => event.eventType))).toEqual(new Set(["swap", "join", "exit"]));
    const v3Pairs = new Set(
      [...chainEvents.pools.values()].filter((pool) => pool.v3).map((pool) => getAddress(pool.address)),
    );
    const v3Events = served.filter((event) => v3Pairs.has(event.pairId as Address));
    expect(v3Events.length).toBeGreaterThan(0);
    // Every event carries reserves: a V3 pool's are its balances (equal to the Transfer logs' sum).
    expect(v3Events.every((event) => event.reserves !== undefined)).toBe(true);
    expect(served.every((event) => event.reserves !== undefined)).toBe(true);
    // Only swaps the spec cannot express are left out (none on the demo).
    expect(chainEvents.events).toHaveLength(served.length);
  });

  test("behavior: a V2 pair's reserves after its last event of a block are getReserves at that block", async () => {
    const { served, chainEvents } = await compareEvents(config.startBlock!, indexed());
    const v3Pairs = new Set(
      [...chainEvents.pools.values()].filter((pool) => pool.v3).map((pool) => getAddress(pool.address)),
    );
    const last = new Map<string, Record<string, unknown>>();
    for (const event of served) {
      if (event.reserves !== undefined && !v3Pairs.has(event.pairId as Address))
        last.set(`${event.pairId}:${(event.block as { blockNumber: number }).blockNumber}`, event);
    }
    const sample = [...last.values()].slice(-40);
    expect(sample.length).toBe(40);
    for (const event of sample) {
      const { blockNumber } = event.block as { blockNumber: number };
      const onChain = await readReservesAt(config, event.pairId as string, blockNumber);
      const reserves = event.reserves as { asset0: string; asset1: string };
      // The event as the chain's logs state it (read once above for the whole history).
      const chainEvent = chainEvents.events.find(
        (e) => e.txnId === event.txnId && e.eventIndex === event.eventIndex,
      )!;
      expect(reserves).toEqual(
        expectedJson({ ...chainEvent, eventType: "join", reserves: onChain })!.reserves as object,
      );
    }
  });

  test("behavior: a V3 pool's reserves after its last event of a block are its balanceOf both tokens at that block", async () => {
    const { served, chainEvents } = await compareEvents(config.startBlock!, indexed());
    const v3Pools = new Map(
      [...chainEvents.pools.values()]
        .filter((pool) => pool.v3)
        .map((pool) => [getAddress(pool.address), pool]),
    );
    const last = new Map<string, Record<string, unknown>>();
    for (const event of served) {
      if (v3Pools.has(event.pairId as Address))
        last.set(`${event.pairId}:${(event.block as { blockNumber: number }).blockNumber}`, event);
    }
    // Up to 200 of the V3 pools' last events of a block (all of them on the demo), spread over the history (every event is
    // checked against the tokens' Transfer logs above): eth_call at that block on this short chain.
    const all = [...last.values()];
    expect(all.length).toBeGreaterThan(100);
    const size = Math.min(200, all.length);
    const sample = Array.from({ length: size }, (_, i) => all[Math.floor((i * all.length) / size)]!);
    const client = clientOf();
    const balanceOf = parseAbi(["function balanceOf(address) view returns (uint256)"]);
    for (const event of sample) {
      const pool = v3Pools.get(event.pairId as Address)!;
      const blockNumber = BigInt((event.block as { blockNumber: number }).blockNumber);
      const [balance0, balance1] = await Promise.all(
        [pool.token0, pool.token1].map((token) =>
          client.readContract({
            address: token,
            abi: balanceOf,
            functionName: "balanceOf",
            args: [pool.address],
            blockNumber,
          }),
        ),
      );
      const chainEvent = chainEvents.events.find(
        (e) => e.txnId === event.txnId && e.eventIndex === event.eventIndex,
      )!;
      expect(event.reserves).toEqual(
        expectedJson({
          ...chainEvent,
          eventType: "join",
          reserves: { reserve0: balance0!, reserve1: balance1! },
        })!.reserves as object,
      );
    }
  });

  test("behavior: a sub-range is exactly its blocks' events, kept per indexed block (same bytes, same ETag)", async () => {
    const all = (await compareEvents(config.startBlock!, indexed())).served;
    // The block of the exit and join sent above: two events of one pair, each with its reserves.
    const busy = all.find((event) => event.eventType === "exit")!.block as { blockNumber: number };
    const from = BigInt(busy.blockNumber - 3);
    const to = BigInt(busy.blockNumber + 3);
    const { served, expected, answer } = await compareEvents(from, to);
    expect(served).toEqual(expected);
    expect(served).toEqual(
      all.filter((event) => {
        const n = BigInt((event.block as { blockNumber: number }).blockNumber);
        return n >= from && n <= to;
      }),
    );
    expect(served.filter((event) => event.eventType !== "swap").length).toBeGreaterThanOrEqual(2);
    const again = await api.call(`/dexscreener/bsc/events?fromBlock=${from}&toBlock=${to}`);
    expect(again.text).toBe(answer.text);
    expect(again.headers.get("etag")).toBe(answer.headers.get("etag"));
    const notModified = await api.call(`/dexscreener/bsc/events?fromBlock=${from}&toBlock=${to}`, {
      headers: { "if-none-match": answer.headers.get("etag")! },
    });
    expect(notModified.status).toBe(304);
  });

  test("behavior: a streamed answer of settled blocks is kept for good: the same bytes again, with an ETag", async () => {
    const settledTip = indexed() - BigInt(config.finalityDepth);
    const path = `/dexscreener/bsc/events?fromBlock=${config.startBlock}&toBlock=${settledTip}`;
    const first = await api.call(path);
    expect(first.status).toBe(200);
    // Streamed (more than one store page): no ETag on the first answer.
    expect((first.body as { events: unknown[] }).events.length).toBeGreaterThan(1_000);
    expect(first.headers.get("etag")).toBeNull();
    const again = await api.call(path);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("etag")).toMatch(/^"dex-bsc-settled-/);
    const { served, expected } = await compareEvents(config.startBlock!, settledTip);
    expect(served).toEqual(expected);
  });

  test("behavior: identical requests arriving together are made once and get the same bytes", async () => {
    let reads = 0;
    const reader = {
      ...indexing.views,
      listPoolEvents: (...args: Parameters<typeof indexing.views.listPoolEvents>) => {
        reads++;
        return indexing.views.listPoolEvents(...args);
      },
    };
    // A real socket: the in-process inject closes a streamed reply before its body is read.
    const counting = await startServer(reader, { listen: true });
    try {
      // A range not asked before, settled: its kept copy does not expire (the newest blocks' copy
      // lasts one 100 ms poll here, which a late connection could outlive and rightly make again).
      const settledTip = indexed() - BigInt(config.finalityDepth);
      const path = `/dexscreener/bsc/events?fromBlock=${config.startBlock! + 1n}&toBlock=${settledTip}`;
      const answers = await Promise.all(Array.from({ length: 6 }, () => counting.call(path)));
      const events = (answers[0]!.body as { events: unknown[] }).events.length;
      expect(events).toBeGreaterThan(1_000);
      expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
      // One answer's store pages, not six.
      expect(reads).toBe(Math.floor(events / 1_000) + 1);
    } finally {
      await counting.close();
    }
  });

  test("behavior: pair and asset say what the pool and token contracts say", async () => {
    const client = clientOf();
    const { pools } = await readDexScreenerEventsFromChain(config, indexed(), indexed());
    const v2 = [...pools.values()].find(
      (pool) => !pool.v3 && indexing.views.getPoolIndex("bsc").get(pool.address),
    )!;
    const v3 = [...pools.values()].find(
      (pool) => pool.v3 && indexing.views.getPoolIndex("bsc").get(pool.address),
    )!;
    const v2Dex = config.dexes.find((dex) => dex.kind === "uniswap-v2")!;
    const v3Fee = await client.readContract({
      address: v3.address,
      abi: parseAbi(["function fee() view returns (uint24)"]),
      functionName: "fee",
    });
    for (const [pool, feeBps] of [
      [v2, v2Dex.feeBps],
      [v3, v3Fee / 100],
    ] as const) {
      const { status, body } = await api.call(
        `/dexscreener/bsc/pair?id=${pool.address.toUpperCase().replace("0X", "0x")}`,
      );
      expect(status).toBe(200);
      expectValid(validators.pair, body);
      expect(body).toMatchObject({
        pair: {
          id: getAddress(pool.address),
          asset0Id: getAddress(pool.token0),
          asset1Id: getAddress(pool.token1),
          feeBps,
        },
      });
      expect(typeof (body as { pair: { dexKey: string } }).pair.dexKey).toBe("string");
      // Creation from the factory's PairCreated / PoolCreated log, read here independently.
      const created = await client.getBlock({ blockNumber: pool.created.blockNumber });
      expect(body).toMatchObject({
        pair: {
          createdAtBlockNumber: Number(pool.created.blockNumber),
          createdAtBlockTimestamp: Number(created.timestamp),
          createdAtTxnId: pool.created.txHash,
        },
      });
    }
    const erc20 = parseAbi([
      "function name() view returns (string)",
      "function symbol() view returns (string)",
      "function decimals() view returns (uint8)",
      "function totalSupply() view returns (uint256)",
    ]);
    const at = { abi: erc20, blockNumber: indexed() } as const;
    for (const token of [v2.token0, v3.token1]) {
      const { status, body } = await api.call(`/dexscreener/bsc/asset?id=${token}`);
      expect(status).toBe(200);
      expectValid(validators.asset, body);
      const supply = await client.readContract({ ...at, address: token, functionName: "totalSupply" });
      const decimals = await client.readContract({ ...at, address: token, functionName: "decimals" });
      expect(body).toEqual({
        asset: {
          id: getAddress(token),
          name: await client.readContract({ ...at, address: token, functionName: "name" }),
          symbol: await client.readContract({ ...at, address: token, functionName: "symbol" }),
          // totalSupply at the indexed block, decimalized.
          totalSupply: formatUnits(supply, decimals),
        },
      });
    }
  });

  test("behavior: every indexed pool's pair names the block, time and transaction of its factory's creation log", async () => {
    const client = clientOf();
    const { pools } = await readDexScreenerEventsFromChain(config, indexed(), indexed());
    const indexedPools = [...pools.values()].filter((pool) =>
      indexing.views.getPoolIndex("bsc").get(pool.address),
    );
    expect(indexedPools.some((pool) => pool.v3) && indexedPools.some((pool) => !pool.v3)).toBe(true);
    for (const pool of indexedPools) {
      const { status, body } = await api.call(`/dexscreener/bsc/pair?id=${pool.address}`);
      expect(status).toBe(200);
      const block = await client.getBlock({ blockNumber: pool.created.blockNumber });
      expect((body as { pair: Record<string, unknown> }).pair).toMatchObject({
        createdAtBlockNumber: Number(pool.created.blockNumber),
        createdAtBlockTimestamp: Number(block.timestamp),
        createdAtTxnId: pool.created.txHash,
      });
    }
  });

  test("error: bad parameters are a JSON 400 naming the parameter; unknown ids a 404", async () => {
    const top = indexed();
    const cases: [string, number, RegExp][] = [
      ["/dexscreener/BSC/latest-block", 400, /network/],
      ["/dexscreener/bsc/events?toBlock=5", 400, /fromBlock/],
      ["/dexscreener/bsc/events?fromBlock=5", 400, /toBlock/],
      ["/dexscreener/bsc/events?fromBlock=abc&toBlock=5", 400, /fromBlock/],
      ["/dexscreener/bsc/events?fromBlock=5&toBlock=-1", 400, /toBlock/],
      ["/dexscreener/bsc/events?fromBlock=9&toBlock=5", 400, /fromBlock/],
      [`/dexscreener/bsc/events?fromBlock=5&toBlock=${top + 1n}`, 400, /toBlock.*latest/],
      [`/dexscreener/bsc/events?fromBlock=0&toBlock=${MAX_EVENT_BLOCKS}`, 400, /toBlock/],
      ["/dexscreener/bsc/pair", 400, /id/],
      ["/dexscreener/bsc/asset?id=0x1234", 400, /id/],
      [`/dexscreener/bsc/pair?id=0x${"ab".repeat(20)}`, 404, /not an indexed pool/],
      [`/dexscreener/bsc/asset?id=0x${"ab".repeat(20)}`, 404, /No indexed pool/],
    ];
    for (const [path, status, message] of cases) {
      const answer = await api.call(path);
      expect([path, answer.status]).toEqual([path, status]);
      expect((answer.body as { error: string }).error, path).toMatch(message);
    }
    expect((await api.call("/dexscreener/bsc/events?fromBlock=1&toBlock=1", { method: "POST" })).status).toBe(
      405,
    );
  });

  test("behavior: the adapter counts against the per-client rate limit like /api/*", async () => {
    // A refill of one request a minute: however slow this machine is, the third call finds the
    // bucket empty (at one a second a loaded machine refilled it between calls).
    const limited = await startServer(indexing.views, { rateLimit: { perSecond: 1 / 60, burst: 2 } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.call("/dexscreener/bsc/latest-block")).status);
      expect(statuses).toEqual([200, 200, 429]);
      const refused = await limited.call("/dexscreener/bsc/events?fromBlock=1&toBlock=1");
      expect(refused.status).toBe(429);
      expect((refused.body as { error: string }).error).toMatch(/Too many requests/);
    } finally {
      await limited.close();
    }
  });

  test("behavior: a mined swap is served once indexed; a reorg takes its events back", async () => {
    const keep = await snapshot(chain.rpcUrl);
    const id = await snapshot(chain.rpcUrl);
    try {
      const base = indexed();
      const orphan = (
        await sendSwap(chain, { path: ["", "USDT"], amountIn: 10n ** 18n, trader: chain.traders[5]! })
      ).toLowerCase();
      await caughtUp();
      const withOrphan = await compareEvents(base + 1n, indexed());
      expect(withOrphan.served).toEqual(withOrphan.expected);
      expect(withOrphan.served.map((event) => event.txnId)).toContain(orphan);

      await revert(chain.rpcUrl, id);
      const canonical = [
        await sendSwap(chain, { path: ["USDT", ""], amountIn: 300n * 10n ** 18n, trader: chain.traders[6]! }),
        await sendSwap(chain, { path: ["", "USDT"], amountIn: 10n ** 17n, trader: chain.traders[7]! }),
      ].map((hash) => hash.toLowerCase());
      await waitFor(async () => {
        if (indexed() < base + 2n) return false;
        const { body } = await api.call(
          `/dexscreener/bsc/events?fromBlock=${base + 1n}&toBlock=${indexed()}`,
        );
        const txns = new Set((body as { events: { txnId: string }[] }).events.map((event) => event.txnId));
        return canonical.every((hash) => txns.has(hash));
      }, 60_000);
      const after = await compareEvents(base + 1n, indexed());
      expect(after.served).toEqual(after.expected);
      expect(after.served.map((event) => event.txnId)).not.toContain(orphan);
      const latest = await api.call("/dexscreener/bsc/latest-block");
      expect((latest.body as { block: { blockNumber: number } }).block.blockNumber).toBe(Number(indexed()));
    } finally {
      await revert(chain.rpcUrl, keep);
    }
  });
});
