import { describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import type { Address, Hash, Trade } from "../../src/domain/types.js";
import { USD_SCALE } from "../../src/domain/types.js";
import { createLiveViews } from "../../src/indexer/createLiveViews.js";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const config: NetworkConfig = {
  name: "bsc",
  chainId: 56,
  rpcUrls: ["http://127.0.0.1:1"],
  native: { name: "BNB", symbol: "BNB", aliases: [], decimals: 18, wrapped: a(1) },
  dexes: [{ name: "dex", factory: a(2), feeBps: 30 }],
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
  rpc: { timeoutMs: 10_000, requestsPerSecond: 0 },
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

describe("createLiveViews", () => {
  test("behavior: daily volumes are exact per UTC day, newest first, with empty days", () => {
    const views = createLiveViews([config]);
    views.load("bsc", {
      tokens: [],
      pools: [],
      trades: [trade(1, T0 + 10, 7, 5n), trade(2, T0 + DAY - 1, 8, 7n), trade(3, T0 + DAY, 7, 0n)],
    });
    expect(views.listDailyVolumes("bsc", 3, T0 + DAY + 50)).toEqual([
      { date: "2026-11-21", volumeUsd: 0n, traderCount: 1, tradeCount: 1, untrackedCount: 1 },
      { date: "2026-11-20", volumeUsd: 12n * USD_SCALE, traderCount: 2, tradeCount: 2, untrackedCount: 0 },
      { date: "2026-11-19", volumeUsd: 0n, traderCount: 0, tradeCount: 0, untrackedCount: 0 },
    ]);
    views.appendTrades("bsc", [trade(4, T0 + DAY + 20, 9, 3n)], 4n);
    expect(views.listDailyVolumes("bsc", 1, T0 + DAY + 50)[0]).toMatchObject({
      volumeUsd: 3n * USD_SCALE,
      traderCount: 2,
    });
    expect(views.listTrades("bsc", { from: T0 + DAY, to: T0 + 2 * DAY }).map((t) => t.blockNumber)).toEqual([
      3n,
      4n,
    ]);
  });

  test("behavior: prune drops old trades and re-derives the day it cuts into", () => {
    const views = createLiveViews([config]);
    views.load("bsc", {
      tokens: [],
      pools: [],
      trades: [trade(1, T0 + 10, 7, 5n), trade(2, T0 + 100, 8, 7n), trade(3, T0 + DAY, 7, 1n)],
    });
    views.prune("bsc", T0 + 50);
    expect(views.listTrades("bsc", { from: 0, to: T0 + 2 * DAY }).map((t) => t.blockNumber)).toEqual([
      2n,
      3n,
    ]);
    expect(views.listDailyVolumes("bsc", 2, T0 + DAY)[1]).toEqual({
      date: "2026-11-20",
      volumeUsd: 7n * USD_SCALE,
      traderCount: 1,
      tradeCount: 1,
      untrackedCount: 0,
    });
  });

  test("args: symbols resolve through the token list of the network's own chain and the native aliases", () => {
    const views = createLiveViews([{ ...config, native: { ...config.native, aliases: ["WBNB-NATIVE"] } }]);
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
    const views = createLiveViews([config]);
    expect(() => views.status("eth")).toThrow("Network eth is not configured on this server.");
  });
});
