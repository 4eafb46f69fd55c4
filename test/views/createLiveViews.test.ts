import { describe, expect, test, vi } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import type { Address, Hash, Trade } from "../../src/domain/types.js";
import { USD_SCALE } from "../../src/domain/types.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { createLiveViews } from "../../src/views/createLiveViews.js";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const config: NetworkConfig = {
  name: "bsc",
  chainId: 56,
  rpcUrls: ["http://127.0.0.1:1"],
  native: { name: "BNB", symbol: "BNB", aliases: [], decimals: 18, wrapped: a(1) },
  dexes: [{ name: "dex", kind: "uniswap-v2", factory: a(2), feeBps: 30 }],
  tokenList: {
    name: "t",
    timestamp: "2026-01-01T00:00:00Z",
    version: { major: 1, minor: 0, patch: 0 },
    tokens: [
      { chainId: 56, address: a(3), name: "Tether USD", symbol: "USDT", decimals: 18 },
      { chainId: 1, address: a(4), name: "Other chain", symbol: "OTH", decimals: 18 },
    ],
  },
  stablecoins: [a(3)],
  baseTokens: [a(1), a(3)],
  minLiquidityUsd: 10n * USD_SCALE,
  windowDays: 7,
  finalityDepth: 8,
  pollIntervalMs: 100,
  maxLogRange: 100,
  maxStalenessSeconds: 600,
  rpc: { timeoutMs: 10_000, requestsPerSecond: 0, costModel: "computeUnits" },
};

const DAY = 86_400;
const T0 = Date.parse("2026-11-20T00:00:00Z") / 1000;

function trade(n: number, timestamp: number, sender: number, usd: bigint): Trade {
  return {
    network: "bsc",
    txHash: `0x${n.toString(16).padStart(64, "0")}` as Hash,
    blockNumber: BigInt(n),
    timestamp,
    txIndex: 0,
    logIndex: 0,
    sender: a(sender),
    tokenIn: "",
    amountIn: 1n,
    tokenOut: a(3),
    amountOut: 2n,
    volumeUsd: usd * USD_SCALE,
    tracked: usd > 0n,
    pools: [],
  };
}

async function openStore(): Promise<Store> {
  const store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  return store;
}

async function commit(store: Store, block: bigint, trades: Trade[]): Promise<void> {
  const hash = `0x${block.toString(16).padStart(64, "0")}` as Hash;
  await store.commitRange("bsc", {
    checkpoint: { blockNumber: block, blockHash: hash },
    blocks: [],
    pairs: [],
    reserves: [],
    trades,
  });
}

// Tests that never list trades need no store behind the views.
const noStore = {} as Store;

describe("createLiveViews", () => {
  test("behavior: daily volumes are the store's exact per-UTC-day aggregates, newest first, with empty days", async () => {
    const store = await openStore();
    const views = createLiveViews([config], store);
    await commit(store, 3n, [
      trade(1, T0 + 10, 7, 5n),
      trade(2, T0 + DAY - 1, 8, 7n),
      trade(3, T0 + DAY, 7, 0n),
    ]);
    expect(await views.listDailyVolumes("bsc", 3, T0 + DAY + 50)).toEqual([
      { date: "2026-11-21", volumeUsd: 0n, traderCount: 1, tradeCount: 1, untrackedCount: 1 },
      { date: "2026-11-20", volumeUsd: 12n * USD_SCALE, traderCount: 2, tradeCount: 2, untrackedCount: 0 },
      { date: "2026-11-19", volumeUsd: 0n, traderCount: 0, tradeCount: 0, untrackedCount: 0 },
    ]);
    await commit(store, 4n, [trade(4, T0 + DAY + 20, 9, 3n)]);
    expect((await views.listDailyVolumes("bsc", 1, T0 + DAY + 50))[0]).toMatchObject({
      volumeUsd: 3n * USD_SCALE,
      traderCount: 2,
    });
    const page = await views.listTrades("bsc", {
      fromTimestamp: T0 + DAY,
      toTimestamp: T0 + 2 * DAY,
      limit: 10,
    });
    expect(page.map((t) => t.blockNumber)).toEqual([3n, 4n]);
    await store.close();
  });

  test("error: a page outside 1..10,000 trades or candles is refused by the store's one check, before any read", async () => {
    const store = await openStore();
    const views = createLiveViews([config], store);
    for (const limit of [0, 10_001, 1.5]) {
      await expect(views.listTrades("bsc", { fromTimestamp: 0, limit })).rejects.toMatchObject({
        name: "BadRequestError",
        status: 400,
        message: "Invalid trade page limit.",
        details: `got ${limit}, expected an integer from 1 to 10000`,
      });
      await expect(
        views.listCandles("bsc", {
          subject: { kind: "token", token: a(3) },
          interval: 3_600,
          fromTimestamp: 0,
          limit,
        }),
      ).rejects.toMatchObject({
        name: "BadRequestError",
        status: 400,
        message: "Invalid candle page limit.",
        details: `got ${limit}, expected an integer from 1 to 10000`,
      });
    }
    await store.close();
  });

  test("behavior: a network is degraded once its head has not been refreshed for three polls", async () => {
    const store = await openStore();
    const views = createLiveViews([config], store);
    views.setStatus("bsc", { headCheckedAt: Date.now(), ready: true });
    expect(views.status("bsc").degraded).toBe(false);
    // The quiet limit is max(3 polls, the RPC timeout): 10 s here.
    views.setStatus("bsc", { headCheckedAt: Date.now() - 10_500 });
    expect(views.status("bsc")).toMatchObject({
      degraded: true,
      ready: true,
      halted: false,
      error: expect.stringMatching(/^No answer for the chain head for 1[01] s\.$/),
    });
    views.setStatus("bsc", { headCheckedAt: Date.now(), error: "RPC unavailable: refused" });
    expect(views.status("bsc").degraded).toBe(true);
    await store.close();
  });

  test("behavior: a status read again is the same until the head goes quiet, then degraded without a new report", async () => {
    const store = await openStore();
    const views = createLiveViews([config], store);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      views.setStatus("bsc", { headCheckedAt: Date.now(), ready: true });
      const first = views.status("bsc");
      expect(first.degraded).toBe(false);
      expect(views.status("bsc")).toBe(first);
      // Nothing reported since: only the clock moved past the quiet limit (10 s here).
      vi.setSystemTime(Date.now() + 10_500);
      expect(views.status("bsc")).toMatchObject({
        degraded: true,
        error: expect.stringMatching(/^No answer for the chain head for 1[01] s\.$/),
      });
      vi.setSystemTime(Date.now() + 2_000);
      expect(views.status("bsc").error).toMatch(/^No answer for the chain head for 1[23] s\.$/);
    } finally {
      vi.useRealTimers();
      await store.close();
    }
  });

  test("args: symbols resolve through the token list of the network's own chain and the native aliases", () => {
    const views = createLiveViews(
      [{ ...config, native: { ...config.native, aliases: ["WBNB-NATIVE"] } }],
      noStore,
    );
    expect(views.findTokenBySymbol("bsc", "usdt")?.address).toBe(a(3));
    expect(views.findTokenBySymbol("bsc", "OTH")).toBeUndefined();
    expect(views.findTokenBySymbol("bsc", "bnb")).toEqual({
      address: "",
      name: "BNB",
      symbol: "BNB",
      decimals: 18,
    });
    expect(views.findTokenBySymbol("bsc", "wbnb-native")?.address).toBe("");
  });

  test("error: a network that is not configured is not ready", () => {
    const views = createLiveViews([config], noStore);
    expect(() => views.status("eth")).toThrow("Network eth is not configured on this server.");
  });
});
