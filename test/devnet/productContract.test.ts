// The devnet (packages/devnet) imports nothing from the product, which loads it for the demo: it
// keeps its own copies of the little it shares with it. Each copy is checked here against the
// product's: the pools' math, the providers' prices, and the manifest the product reads back.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DevnetNetworkConfig } from "@swapgraph/devnet/devnetTypes.js";
import { COMMON_COMPUTE_UNITS } from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import { getAmountOut as devnetAmountOut } from "@swapgraph/devnet/market/getAmountOut.js";
import {
  MAX_TICK as DEVNET_MAX_TICK,
  MIN_TICK as DEVNET_MIN_TICK,
  getSqrtRatioAtTick as devnetSqrtRatio,
} from "@swapgraph/devnet/v3/getSqrtRatioAtTick.js";
import { writeManifest } from "@swapgraph/devnet/writeManifest.js";
import { describe, expect, onTestFinished, test } from "vitest";
import { DEFAULT_COMPUTE_UNITS } from "../../src/chain/readsWholeBlock.js";
import { parseConfigJson } from "../../src/config/loadConfig.js";
import type { NetworkConfig } from "../../src/config/types.js";
import { NETWORKS } from "../../src/domain/types.js";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "../../src/pricing/v3/getSqrtRatioAtTick.js";

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as const;

describe("the devnet's copies of the product's rules", () => {
  test("behavior: its TickMath gives the indexer's sqrt price at every tested tick, bounds included", () => {
    expect([DEVNET_MIN_TICK, DEVNET_MAX_TICK]).toEqual([MIN_TICK, MAX_TICK]);
    const ticks = [MIN_TICK, MAX_TICK, 0, 1, -1];
    // Every bit of |tick| on its own and with its neighbours, both signs.
    for (let bit = 0; bit < 20; bit++) {
      for (const tick of [1 << bit, (1 << bit) - 1, (1 << bit) + 1]) {
        if (tick <= MAX_TICK) ticks.push(tick, -tick);
      }
    }
    for (let tick = -887_000; tick <= 887_000; tick += 7_919) ticks.push(tick);
    for (const tick of ticks) expect(devnetSqrtRatio(tick), `tick ${tick}`).toBe(getSqrtRatioAtTick(tick));
    expect(() => devnetSqrtRatio(MAX_TICK + 1)).toThrow(/outside/);
  });

  test("behavior: its pair math gives the pricing's amounts out, for both fees and the edges", () => {
    const cases: [bigint, bigint, bigint, number][] = [
      [0n, 10n ** 18n, 10n ** 18n, 30],
      [1n, 1n, 1n, 30],
      [10n ** 18n, 0n, 10n ** 18n, 25],
    ];
    let x = 12_345n;
    for (let i = 0; i < 200; i++) {
      x = (x * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % 2n ** 64n;
      cases.push([x % 10n ** 21n, (x >> 7n) % 10n ** 24n, (x >> 3n) % 10n ** 27n, i % 2 === 0 ? 30 : 25]);
    }
    for (const [amountIn, reserveIn, reserveOut, fee] of cases) {
      expect(devnetAmountOut(amountIn, reserveIn, reserveOut, fee)).toBe(
        getAmountOut(amountIn, reserveIn, reserveOut, fee),
      );
    }
  });

  test("behavior: the provider emulator charges by the indexer's table of compute units", () => {
    expect(COMMON_COMPUTE_UNITS).toEqual(DEFAULT_COMPUTE_UNITS);
  });

  test("behavior: its manifest reads back through the product's loader as the same networks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-manifest-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const network: DevnetNetworkConfig = {
      name: "eth",
      chainId: 31_337,
      rpcUrls: ["http://127.0.0.1:8545"],
      native: { name: "Ether", symbol: "ETH", aliases: [], decimals: 18, wrapped: address(1) },
      dexes: [
        { name: "uniswap-v2", kind: "uniswap-v2", factory: address(2), router: address(3), feeBps: 30 },
        {
          name: "pancakeswap-v3",
          kind: "pancakeswap-v3",
          factory: address(4),
          deployer: address(5),
          feeBps: 0,
        },
      ],
      tokenList: {
        name: "swapgraph devnet eth",
        timestamp: "2026-01-01T00:00:00.000Z",
        version: { major: 1, minor: 0, patch: 0 },
        tokens: [
          { chainId: 31_337, address: address(1), name: "Wrapped Ether", symbol: "WETH", decimals: 18 },
          {
            chainId: 31_337,
            address: address(6),
            name: "USD Coin",
            symbol: "USDC",
            decimals: 6,
            tags: ["stablecoin"],
          },
        ],
      },
      stablecoins: [address(6)],
      baseTokens: [address(1), address(6)],
      // 10,000.05 USD: the fraction survives the decimal string, its leading zero too.
      minLiquidityUsd: 10_000n * 10n ** 18n + 5n * 10n ** 16n,
      startBlock: 12n,
      windowDays: 7,
      finalityDepth: 32,
      pollIntervalMs: 500,
      maxLogRange: 2000,
      maxStalenessSeconds: 600,
      rpc: {
        timeoutMs: 10_000,
        requestsPerSecond: 0,
        costModel: "computeUnits",
        maxLogAddresses: 4_000,
        retryDelayMs: 250,
        cooldownMs: 5_000,
      },
    };
    const path = join(dir, "manifest.json");
    await writeManifest(path, [network]);
    const { networks } = parseConfigJson(JSON.parse(readFileSync(path, "utf8")), path);
    // The devnet's shape is the product's: a devnet network is a NetworkConfig as it stands.
    const expected: NetworkConfig[] = [network];
    expect(networks).toEqual(expected);
    expect((NETWORKS as readonly string[]).includes(network.name)).toBe(true);
  });
});
