import { type HostileTokenAddresses, hostileTokenAbi } from "@swapgraph/devnet/cases/deployHostileTokens.js";
import { uniswapV2RouterAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { Logger } from "pino";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  maxUint256,
  parseAbi,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { NotErc20Error } from "../../src/errors.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { type FaultProxy, startFaultProxy } from "../chain/faultProxy.js";
import { createMemoryLogger } from "../graphql/support.js";
import { startServer, type TestServer } from "../http/support.js";
import { mine, startTestDevnet } from "../support/devnet.js";
import { waitFor } from "../support/waitFor.js";

let devnet: Devnet;
let config: NetworkConfig;
let hostile: HostileTokenAddresses;
let first: FaultProxy;
let second: FaultProxy;
let store: Store;
let indexing: Indexing;
let api: TestServer;
let records: Record<string, unknown>[];
let logger: Logger;

/** A fresh address no contract lives at. */
let nextAddress = 0xc0de00;
function codeless(): Address {
  return `0x${(nextAddress++).toString(16).padStart(40, "0")}`;
}

/** JSON-RPC calls the indexer's processes sent that name `address` (as `to` or in calldata). */
function callsAbout(address: Address): number {
  return callsAboutEach([address])[0]!;
}

/**
 * callsAbout for many addresses, each seen call rendered once: rendering the whole log again per
 * address (thousands of calls, 300 addresses) blocks this process's event loop for many seconds,
 * the indexer's included, and its head poll would go quiet because of the test itself.
 */
function callsAboutEach(addresses: readonly Address[]): number[] {
  const texts = first.seen.map((call) => JSON.stringify(call.params).toLowerCase());
  return addresses.map((address) => {
    const hex = address.slice(2).toLowerCase();
    return texts.filter((text) => text.includes(hex)).length;
  });
}

async function storeRows(): Promise<{ tokens: number; pairs: number; rejected: number }> {
  return {
    tokens: (await store.listTokens("bsc")).length,
    pairs: (await store.listPairs("bsc")).length,
    rejected: (await store.listRejectedPairs("bsc")).length,
  };
}

function quote(sell: Address, buy = "USDT") {
  return api.call(`/api/quote?network=bsc&sellToken=${sell}&buyToken=${buy}`);
}

async function gqlToken(address: Address) {
  const query = `{ token(network: bsc, symbolOrAddress: "${address}") { address name symbol decimals } }`;
  return api.call("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query }),
  });
}

/** Every call went to the first URL: none was blamed on it and retried at the second. */
function expectUrlsHealthy(): void {
  expect(second.seen).toEqual([]);
  expect(records.filter((r) => r.msg === "rpc url failed; failing over")).toEqual([]);
  expect(indexing.views.status("bsc").degraded).toBe(false);
}

beforeAll(async () => {
  devnet = await startTestDevnet({ swapsPerNetwork: 40, traders: 8 });
  const chain = devnet.chains[0]!;
  hostile = chain.hostile;
  first = await startFaultProxy(chain.rpcUrl);
  second = await startFaultProxy(chain.rpcUrl);
  config = { ...devnet.networks[0]!, rpcUrls: [first.url, second.url] };
  store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  ({ logger, records } = createMemoryLogger("warn"));
  indexing = createIndexing({ networks: [config], store, log: logger });
  indexing.start();
  await waitFor(() => indexing.views.status("bsc").ready, 120_000, "bsc indexed");
  api = await startServer(indexing.views);
});

afterAll(async () => {
  await api?.close();
  await indexing?.stop();
  await store?.close();
  await first?.close();
  await second?.close();
  await devnet?.stop();
});

describe("token lookups by address", () => {
  test("behavior: a token with a pool is served with its own text (apostrophe and markup kept, controls and invisible characters gone), and only then are it and its pool stored", async () => {
    const before = await storeRows();
    expect((await store.listTokens("bsc")).some((t) => t.address === hostile.dirty)).toBe(false);
    const { status, body, text } = await quote(hostile.dirty, "BNB");
    expect(status).toBe(200);
    expect((body as { result: { sell_token: unknown } }).result.sell_token).toEqual({
      name: "Evil <b>Pooh's</b> <img src=x onerror=__x=1> Tøkén 币 coin",
      symbol: "[31m<img src=x onerror=__x=1>",
      decimals: "18",
      address: hostile.dirty,
    });
    expect(text.length).toBeLessThan(1_000);
    expect(await store.listTokens("bsc")).toContainEqual({
      address: hostile.dirty,
      name: "Evil <b>Pooh's</b> <img src=x onerror=__x=1> Tøkén 币 coin",
      symbol: "[31m<img src=x onerror=__x=1>",
      decimals: 18,
    });
    expect((await store.listPairs("bsc")).map((p) => p.address)).toContain(hostile.dirtyPool);
    expect(await storeRows()).toEqual({ ...before, tokens: before.tokens + 1, pairs: before.pairs + 1 });
    // GraphQL serves the same text.
    expect((await gqlToken(hostile.dirty)).body).toEqual({
      data: {
        token: {
          address: hostile.dirty,
          name: "Evil <b>Pooh's</b> <img src=x onerror=__x=1> Tøkén 币 coin",
          symbol: "[31m<img src=x onerror=__x=1>",
          decimals: 18,
        },
      },
    });
  });

  test("behavior: 1,000,000- and 65,536-byte names give small answers and store nothing", async () => {
    const before = await storeRows();
    const started = performance.now();
    const huge = await quote(hostile.huge);
    expect(performance.now() - started).toBeLessThan(1_000);
    // No pool: a 422 whose message names the token by address, as it has no readable symbol.
    expect(huge.status).toBe(422);
    expect(huge.body).toEqual({
      error: `No liquidity route from ${hostile.huge} to USDT on bsc in the indexed pools.`,
    });
    const long = await quote(hostile.long);
    expect(long.status).toBe(422);
    expect(long.text.length).toBeLessThan(200);
    const token = await gqlToken(hostile.long);
    expect(token.status).toBe(200);
    expect(token.body).toEqual({
      data: {
        token: {
          address: hostile.long,
          name: `${"Long".repeat(16).slice(0, 63)}…`,
          symbol: `${"Long".repeat(8).slice(0, 31)}…`,
          decimals: 18,
        },
      },
    });
    expect(await storeRows()).toEqual(before);
    expect(indexing.views.getToken("bsc", hostile.long)).toBeUndefined();
  });

  test("error: decimals() 255 is refused with a clear 400 on REST and GraphQL, and cached", async () => {
    const message = `Token ${hostile.wideDecimals} on bsc is not supported: its decimals() is 255, expected 0 to 36.`;
    const rest = await quote(hostile.wideDecimals);
    expect(rest).toMatchObject({ status: 400, body: { error: message } });
    const graphql = await gqlToken(hostile.wideDecimals);
    expect(graphql).toMatchObject({
      status: 400,
      body: { data: { token: null }, errors: [{ message, extensions: { code: "BAD_REQUEST" } }] },
    });
    expect(callsAbout(hostile.wideDecimals)).toBe(1);
  });

  test("error: gas burners are refused after one gas-capped call in well under a second, then from the cache; URLs stay healthy", async () => {
    for (const burner of [hostile.gasBurner, hostile.revertBurner]) {
      const started = performance.now();
      const answer = await quote(burner);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(answer).toMatchObject({
        status: 400,
        body: { error: `${burner} is not an ERC-20 token contract on bsc.` },
      });
      expect(callsAbout(burner)).toBe(1);
      for (let i = 0; i < 5; i++) expect((await quote(burner)).status).toBe(400);
      expect(callsAbout(burner)).toBe(1);
    }
    expectUrlsHealthy();
  });

  test("behavior: an address without code costs one RPC call, however often and concurrently it is named", async () => {
    const sequential = codeless();
    for (let i = 0; i < 20; i++) expect((await quote(sequential)).status).toBe(400);
    expect(callsAbout(sequential)).toBe(1);

    const concurrent = codeless();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 1_000 }, () => indexing.views.resolveTokenAddress("bsc", concurrent)),
    );
    expect(outcomes.every((o) => o.status === "rejected" && o.reason instanceof NotErc20Error)).toBe(true);
    expect(callsAbout(concurrent)).toBe(1);

    const overHttp = codeless();
    const answers = await Promise.all(Array.from({ length: 100 }, () => quote(overHttp)));
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(400));
    expect(callsAbout(overHttp)).toBe(1);
    expectUrlsHealthy();
  });

  test("behavior: 300 distinct addresses cost one call each and write nothing to the store", async () => {
    const before = await storeRows();
    const addresses = Array.from({ length: 300 }, codeless);
    // 25 at a time: what a busy API sees; the lookup queue holds them all.
    for (let i = 0; i < addresses.length; i += 25) {
      const answers = await Promise.all(addresses.slice(i, i + 25).map((address) => quote(address)));
      expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(400));
    }
    expect(callsAboutEach(addresses)).toEqual(Array(300).fill(1));
    expect(await storeRows()).toEqual(before);
    expect(addresses.some((address) => indexing.views.getToken("bsc", address) !== undefined)).toBe(false);
    // The head poll has its lane: it never went quiet, no URL was blamed, nothing failed over.
    expectUrlsHealthy();
  });

  test("behavior: a traded pool of a token with decimals 255 is refused for good, and indexing goes on", async () => {
    const chain = devnet.chains[0]!;
    const dex = chain.dexes[0]!;
    const before = await storeRows();
    const wallet = createWalletClient({
      account: chain.deployer,
      transport: http(chain.rpcUrl, { retryCount: 0 }),
    });
    const send = (to: Address, data: `0x${string}`, value = 0n) =>
      wallet.sendTransaction({ chain: null, to, data, value, gas: 5_000_000n });
    await send(
      hostile.wideDecimals,
      encodeFunctionData({ abi: hostileTokenAbi, functionName: "approve", args: [dex.router, maxUint256] }),
    );
    await send(
      dex.router,
      encodeFunctionData({
        abi: uniswapV2RouterAbi,
        functionName: "addLiquidityETH",
        args: [hostile.wideDecimals, 10n ** 24n, 0n, 0n, chain.deployer, maxUint256],
      }),
      10n ** 18n,
    );
    await mine(chain.rpcUrl);
    const reader = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
    const pool = (
      await reader.readContract({
        address: dex.factory,
        abi: parseAbi(["function getPair(address, address) view returns (address)"]),
        functionName: "getPair",
        args: [hostile.wideDecimals, chain.wrapped],
      })
    ).toLowerCase() as Address;
    const head = await reader.getBlockNumber({ cacheTime: 0 });
    // Its Sync log names an unknown pair of a configured factory: the indexer reads its tokens.
    await waitFor(
      async () => ((await store.getCheckpoint("bsc"))?.blockNumber ?? 0n) >= head,
      30_000,
      "the block with the new pool indexed",
    );
    expect(await store.listRejectedPairs("bsc")).toContain(pool);
    expect(await storeRows()).toEqual({ ...before, rejected: before.rejected + 1 });
    expect(indexing.views.status("bsc").degraded).toBe(false);
  });

  test("behavior: a replica looks tokens up with the same bounds and never writes", async () => {
    const replica = createIndexing({ networks: [config], store, log: logger, role: "api" });
    replica.start();
    try {
      await waitFor(
        () =>
          replica.views
            .resolveTokenAddress("bsc", hostile.long)
            .then(() => true)
            .catch(() => false),
        30_000,
        "the replica's token resolver",
      );
      const before = await storeRows();
      expect(await replica.views.resolveTokenAddress("bsc", hostile.dirty)).toEqual({
        address: hostile.dirty,
        name: "Evil <b>Pooh's</b> <img src=x onerror=__x=1> Tøkén 币 coin",
        symbol: "[31m<img src=x onerror=__x=1>",
        decimals: 18,
      });
      const burner = hostile.gasBurner;
      const seen = callsAbout(burner);
      for (let i = 0; i < 5; i++) {
        await expect(replica.views.resolveTokenAddress("bsc", burner)).rejects.toBeInstanceOf(NotErc20Error);
      }
      expect(callsAbout(burner) - seen).toBe(1);
      expect(await storeRows()).toEqual(before);
      expectUrlsHealthy();
    } finally {
      await replica.stop();
    }
  });
});
