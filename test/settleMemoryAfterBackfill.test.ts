import { afterEach, expect, test, vi } from "vitest";
import type { NetworkConfig } from "../src/config/types.js";
import { USD_SCALE } from "../src/domain/types.js";
import { settleMemoryAfterBackfill } from "../src/settleMemoryAfterBackfill.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../src/store/types.js";
import { createLiveViews } from "../src/views/createLiveViews.js";
import { addr, hash } from "./support/storeFixtures.js";

const config = (name: NetworkConfig["name"]): NetworkConfig => ({
  name,
  chainId: 56,
  rpcUrls: ["http://127.0.0.1:1"],
  native: { name: "BNB", symbol: "BNB", aliases: [], decimals: 18, wrapped: addr(1) },
  dexes: [{ name: "dex", kind: "uniswap-v2", factory: addr(2), feeBps: 30 }],
  tokenList: {
    name: "t",
    timestamp: "2026-01-01T00:00:00Z",
    version: { major: 1, minor: 0, patch: 0 },
    tokens: [{ chainId: 56, address: addr(3), name: "Tether USD", symbol: "USDT", decimals: 18 }],
  },
  stablecoins: [addr(3)],
  baseTokens: [addr(1), addr(3)],
  minLiquidityUsd: 10n * USD_SCALE,
  windowDays: 7,
  finalityDepth: 8,
  pollIntervalMs: 100,
  maxLogRange: 100,
  maxStalenessSeconds: 600,
  rpc: { timeoutMs: 10_000, requestsPerSecond: 0, costModel: "computeUnits" },
});

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
});

async function setup() {
  store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  const views = createLiveViews([config("bsc"), config("eth")], store);
  views.load("bsc", { tokens: [], pools: [] });
  views.load("eth", { tokens: [], pools: [] });
  return views;
}

const checkpoint = (n: number) => ({ blockNumber: BigInt(n), blockHash: hash(n) });

test("behavior: one collection per network as it turns ready, before the status says so to anyone else, none on later commits", async () => {
  const views = await setup();
  const collect = vi.fn();
  const after: string[] = [];
  settleMemoryAfterBackfill({ views, collect, onSettled: (s) => after.push(`${s.network}:${s.after}`) });
  // The backfill's commits: not ready yet.
  views.markIndexed("bsc", checkpoint(1));
  views.markIndexed("bsc", checkpoint(2));
  expect(collect).not.toHaveBeenCalled();
  views.setStatus("bsc", { ready: true });
  // Synchronously: /ready reads the same status, so its first 200 comes after the collection.
  expect(collect).toHaveBeenCalledTimes(1);
  views.markIndexed("bsc", checkpoint(3));
  views.setStatus("bsc", { ready: true });
  expect(collect).toHaveBeenCalledTimes(1);
  views.setStatus("eth", { ready: true });
  expect(collect).toHaveBeenCalledTimes(2);
  expect(after).toEqual(["bsc:ready", "eth:ready"]);
});

test("behavior: a second collection once the settled hours that readiness started are rendered, not before", async () => {
  const views = await setup();
  const collect = vi.fn();
  let rendered!: () => void;
  const hoursDone = new Promise<void>((resolve) => {
    rendered = resolve;
  });
  const settled = new Promise<string>((resolve) => {
    settleMemoryAfterBackfill({
      views,
      swapHours: { idle: () => hoursDone },
      collect,
      onSettled: (s) => {
        if (s.after === "hours") resolve(s.network);
      },
    });
  });
  views.setStatus("bsc", { ready: true });
  expect(collect).toHaveBeenCalledTimes(1);
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  expect(collect).toHaveBeenCalledTimes(1);
  rendered();
  expect(await settled).toBe("bsc");
  expect(collect).toHaveBeenCalledTimes(2);
});

test("error: a collector that throws leaves readiness and the other networks as they were", async () => {
  const views = await setup();
  const collect = vi.fn(() => {
    throw new Error("no collection on demand here");
  });
  const told: string[] = [];
  settleMemoryAfterBackfill({ views, collect, onSettled: (s) => told.push(s.network) });
  views.watchIndexed((network) => told.push(`watcher:${network}`));
  views.setStatus("bsc", { ready: true });
  views.setStatus("eth", { ready: true });
  expect(views.status("bsc").ready).toBe(true);
  expect(collect).toHaveBeenCalledTimes(2);
  expect(told).toEqual(["watcher:bsc", "watcher:eth"]);
});
