import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Devnet, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chainHead, sendSwap } from "../support/devnet.js";
import { devnetCacheKey, rpc, startCachedDevnet } from "../support/devnetCache.js";

// The suite's devnet cache (test/support/devnetCache.ts): a loaded devnet must be the built one.
const OPTIONS = { networks: ["bsc" as const], swapsPerNetwork: 40, traders: 8, liveIntervalMs: 0, seed: 3 };

let cacheDir: string;
let built: Devnet;
let loaded: Devnet;
const logsOfBuilt: unknown[] = [];
const callsOfBuilt: unknown[] = [];

/** getReserves of the first pool at blocks 3 and the head: a loaded chain must answer old blocks too. */
const reserveCalls = (devnet: Devnet) =>
  Promise.all(
    ["0x3", "latest"].map((block) =>
      rpc(devnet.chains[0]!.rpcUrl, "eth_call", [
        { to: devnet.chains[0]!.pools[0]!.address, data: "0x0902f1ac" },
        block,
      ]),
    ),
  );

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "swapgraph-cache-test-"));
  built = await startCachedDevnet(cacheDir, { ...OPTIONS, dataDir: join(cacheDir, "a") }, startDevnet);
  logsOfBuilt.push(
    await rpc(built.chains[0]!.rpcUrl, "eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }]),
  );
  callsOfBuilt.push(...(await reserveCalls(built)));
  // The file that built it changes its chain: the saved state must still be the built one.
  await sendSwap(built.chains[0]!, { path: ["WBNB", "USDT"], amountIn: 10n ** 17n });
  await built.stop();
  loaded = await startCachedDevnet(cacheDir, { ...OPTIONS, dataDir: join(cacheDir, "b") }, () => {
    throw new Error("built again instead of loaded");
  });
}, 180_000);

afterAll(async () => {
  await loaded?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe("the test devnet cache", () => {
  test("behavior: a loaded devnet is the built one: same description, logs, state at old blocks", async () => {
    const url = loaded.chains[0]!.rpcUrl;
    expect(url).not.toBe(built.chains[0]!.rpcUrl);
    const { rpcUrl: _a, pid: _b, ...loadedChain } = loaded.chains[0]!;
    const { rpcUrl: _c, pid: _d, ...builtChain } = built.chains[0]!;
    expect(loadedChain).toEqual(builtChain);
    expect(loaded.networks).toEqual(built.networks.map((n) => ({ ...n, rpcUrls: [url] })));
    expect(JSON.parse(readFileSync(loaded.manifestPath, "utf8")).networks[0].rpcUrls).toEqual([url]);
    expect(await rpc(url, "eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }])).toEqual(logsOfBuilt[0]);
    expect(await reserveCalls(loaded)).toEqual(callsOfBuilt);
  });

  test("behavior: the loaded chain's traders are unlocked and its next block is mined at the wall clock", async () => {
    const chain = loaded.chains[0]!;
    const before = await chainHead(chain.rpcUrl);
    await sendSwap(chain, { path: ["WBNB", "USDT"], amountIn: 10n ** 17n, trader: chain.traders[1]! });
    expect(await chainHead(chain.rpcUrl)).toBe(before + 1n);
    const block = (await rpc(chain.rpcUrl, "eth_getBlockByNumber", ["latest", false])) as {
      timestamp: string;
    };
    expect(Math.abs(Number(block.timestamp) - Date.now() / 1000)).toBeLessThan(600);
  });

  test("error: a loaded devnet trades no live blocks; the key ignores where it writes and its log", () => {
    expect(() => loaded.startLive(100)).toThrow("trades no live blocks");
    expect(devnetCacheKey({ ...OPTIONS, dataDir: "/x", log: () => {} })).toBe(devnetCacheKey(OPTIONS));
    expect(devnetCacheKey({ ...OPTIONS, seed: 4 })).not.toBe(devnetCacheKey(OPTIONS));
  });
});
