import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { keccak256 } from "viem";
import { describe, expect, test } from "vitest";
import {
  DEX_PRESET_NAMES,
  DEX_PRESETS,
  type DexPreset,
  type DexPresetName,
} from "../../src/config/dexPresets.js";
import { loadConfig } from "../../src/config/loadConfig.js";
import type { Address, Hash } from "../../src/domain/types.js";

// The Uniswap SDKs' ESM builds import without file extensions, which Node's ESM loader refuses:
// their CommonJS builds are read instead (the same constants).
const require = createRequire(import.meta.url);
const uniswapCore = require("@uniswap/sdk-core") as typeof import("@uniswap/sdk-core");
const uniswapV3 = require("@uniswap/v3-sdk") as typeof import("@uniswap/v3-sdk");
// @pancakeswap/sdk (5.9.2, the version @pancakeswap/v3-sdk 3.10.2 pins) re-exports
// @pancakeswap/v2-sdk's V2 maps and @pancakeswap/swap-sdk-core's fee constants.
const pancake = require("@pancakeswap/sdk") as typeof import("@pancakeswap/sdk");
const pancakeV3 = require("@pancakeswap/v3-sdk") as typeof import("@pancakeswap/v3-sdk");
const uniswapV2Pair = require("@uniswap/v2-core/build/UniswapV2Pair.json") as { bytecode: string };

const lower = <T extends string>(value: T | undefined): T | undefined =>
  value?.toLowerCase() as T | undefined;

/** Uniswap V2's fee over 10,000, read from the pair's source: `balance.mul(1000).sub(amountIn.mul(3))`. */
function uniswapV2FeeBps(): number {
  const source = readFileSync(require.resolve("@uniswap/v2-core/contracts/UniswapV2Pair.sol"), "utf8");
  const match = /balance0\.mul\((\d+)\)\.sub\(amount0In\.mul\((\d+)\)\)/.exec(source);
  if (match === null) throw new Error("UniswapV2Pair.sol: the fee line was not found");
  return (Number(match[2]) * 10_000) / Number(match[1]);
}

/** V3 tick spacings as a package publishes them, for the table's fees (each must be a FeeAmount). */
function tiersOf(
  fees: readonly number[],
  feeAmounts: Record<string, string | number>,
  spacings: Record<number, number>,
): { fee: number; tickSpacing: number }[] {
  const published = Object.values(feeAmounts).filter((value): value is number => typeof value === "number");
  return fees.map((fee) => {
    expect(published, `fee ${fee} is one of the package's FeeAmount`).toContain(fee);
    return { fee, tickSpacing: spacings[fee]! };
  });
}

/** What the official packages publish for a preset on a chain, in the table's shape. */
function published(name: DexPresetName, chainId: number, table: DexPreset): DexPreset {
  switch (name) {
    case "uniswap-v2":
      return {
        kind: "uniswap-v2",
        factory: lower(uniswapCore.V2_FACTORY_ADDRESSES[chainId] as Address)!,
        initCodeHash: keccak256(`0x${uniswapV2Pair.bytecode.replace(/^0x/, "")}`),
        router: lower(uniswapCore.V2_ROUTER_ADDRESSES[chainId] as Address)!,
        feeBps: uniswapV2FeeBps(),
      };
    case "uniswap-v3": {
      const factory = lower(uniswapCore.V3_CORE_FACTORY_ADDRESSES[chainId] as Address)!;
      const addresses =
        uniswapCore.CHAIN_TO_ADDRESSES_MAP[chainId as keyof typeof uniswapCore.CHAIN_TO_ADDRESSES_MAP];
      expect(lower(addresses.v3CoreFactoryAddress)).toBe(factory);
      expect(uniswapV3.poolInitCodeHash(chainId)).toBe(uniswapV3.POOL_INIT_CODE_HASH);
      return {
        kind: "uniswap-v3",
        factory,
        initCodeHash: lower(uniswapV3.poolInitCodeHash(chainId) as Hash)!,
        router: lower(uniswapCore.SWAP_ROUTER_02_ADDRESSES(chainId) as Address)!,
        feeBps: 0,
        feeTiers: tiersOf(
          (table.feeTiers ?? []).map((tier) => tier.fee),
          uniswapV3.FeeAmount,
          uniswapV3.TICK_SPACINGS,
        ),
      };
    }
    case "pancakeswap-v2":
      return {
        kind: "uniswap-v2",
        factory: lower(
          pancake.FACTORY_ADDRESS_MAP[chainId as keyof typeof pancake.FACTORY_ADDRESS_MAP] as Address,
        )!,
        initCodeHash: lower(
          pancake.INIT_CODE_HASH_MAP[chainId as keyof typeof pancake.INIT_CODE_HASH_MAP] as Hash,
        )!,
        feeBps: Number(pancake._10000 - pancake._9975),
      };
    case "pancakeswap-v3": {
      const id = chainId as keyof typeof pancakeV3.FACTORY_ADDRESSES;
      // Every tier the SDK knows: PancakeSwap V3's factory enables them all.
      const fees = Object.values(pancakeV3.FeeAmount).filter(
        (value): value is number => typeof value === "number",
      );
      return {
        kind: "pancakeswap-v3",
        factory: lower(pancakeV3.FACTORY_ADDRESSES[id] as Address)!,
        deployer: lower(pancakeV3.DEPLOYER_ADDRESSES[id] as Address)!,
        initCodeHash: lower(pancakeV3.POOL_INIT_CODE_HASHES[id] as Hash)!,
        feeBps: 0,
        feeTiers: tiersOf(fees, pancakeV3.FeeAmount, pancakeV3.TICK_SPACINGS as Record<number, number>),
      };
    }
  }
}

const entries = DEX_PRESET_NAMES.flatMap((name) =>
  Object.entries(DEX_PRESETS[name]).map(([chainId, preset]) => [name, Number(chainId), preset!] as const),
);

describe("DEX_PRESETS", () => {
  test("behavior: covers PancakeSwap V2 and V3 on BSC, Uniswap V2 and V3 on Ethereum, Uniswap V3 on Polygon", () => {
    expect(entries.map(([name, chainId]) => `${name}@${chainId}`)).toEqual(
      expect.arrayContaining([
        "pancakeswap-v2@56",
        "pancakeswap-v3@56",
        "uniswap-v2@1",
        "uniswap-v3@1",
        "uniswap-v3@137",
      ]),
    );
  });

  test.each(entries.map(([name, chainId, preset]) => [`${name}@${chainId}`, name, chainId, preset] as const))(
    "behavior: %s equals the official packages' constants",
    (_, name, chainId, preset) => {
      expect(preset).toEqual(published(name, chainId, preset));
    },
  );

  test("behavior: the V2 init-code hash is also keccak256 of @uniswap/v2-core's pair build, the V3 one of @uniswap/v3-core's pool", () => {
    expect(DEX_PRESETS["uniswap-v2"][1]!.initCodeHash).toBe(keccak256(`0x${uniswapV2Pair.bytecode}`));
    const pool = require("@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json") as {
      bytecode: Hash;
    };
    expect(DEX_PRESETS["uniswap-v3"][1]!.initCodeHash).toBe(keccak256(pool.bytecode));
  });
});

/**
 * Values of config/mainnet.json that no installed package publishes, typed in the file by hand:
 * each may only stand where this list says, so a new one cannot slip in unchecked.
 */
const UNPUBLISHED: Record<string, readonly string[]> = {
  // PancakeSwap's packages publish no router for BSC.
  "bsc/pancakeswap-v2": ["router"],
  // No SushiSwap or QuickSwap package is installed.
  "eth/sushiswap": ["factory", "router", "feeBps"],
  "polygon/quickswap": ["factory", "router", "feeBps"],
  "polygon/sushiswap": ["factory", "router", "feeBps"],
};

describe("config/mainnet.json", () => {
  const path = new URL("../../config/mainnet.json", import.meta.url).pathname;
  const raw = JSON.parse(readFileSync(path, "utf8")) as {
    networks: { name: string; chainId: number; dexes: Record<string, unknown>[] }[];
  };
  const { config } = loadConfig({}, ["--config", path]);

  test("behavior: every DEX is its preset, with only the listed unpublished values typed by hand", () => {
    const typed: Record<string, string[]> = {};
    for (const network of raw.networks) {
      for (const dex of network.dexes) {
        const own = Object.keys(dex).filter((key) => key !== "name" && key !== "preset" && key !== "kind");
        if (own.length > 0) typed[`${network.name}/${String(dex.name)}`] = own.sort();
      }
    }
    expect(typed).toEqual(
      Object.fromEntries(Object.entries(UNPUBLISHED).map(([key, keys]) => [key, [...keys].sort()])),
    );
  });

  test("behavior: each loaded DEX equals the official constants of its preset", () => {
    let checked = 0;
    raw.networks.forEach((network, n) => {
      network.dexes.forEach((dex, d) => {
        const loaded = config.networks[n]!.dexes[d]!;
        const name = dex.preset as DexPresetName | undefined;
        if (name === undefined) return;
        const table = DEX_PRESETS[name][network.chainId]!;
        const official = published(name, network.chainId, table);
        const handTyped = UNPUBLISHED[`${network.name}/${String(dex.name)}`] ?? [];
        expect(loaded.kind).toBe(official.kind);
        expect(loaded.factory).toBe(official.factory);
        expect(loaded.deployer).toBe(official.deployer);
        if (!handTyped.includes("router")) expect(loaded.router).toBe(official.router);
        expect(loaded.feeBps).toBe(official.feeBps);
        checked++;
      });
    });
    // pancakeswap-v2 and -v3 on bsc, uniswap-v2 and -v3 on eth, uniswap-v3 on polygon.
    expect(checked).toBe(5);
  });

  test("behavior: a DEX without a preset is not one a preset publishes on its chain", () => {
    raw.networks.forEach((network, n) => {
      network.dexes.forEach((dex, d) => {
        if (dex.preset !== undefined) return;
        const loaded = config.networks[n]!.dexes[d]!;
        for (const name of DEX_PRESET_NAMES) {
          expect(DEX_PRESETS[name][network.chainId]?.factory, `${network.name}/${String(dex.name)}`).not.toBe(
            loaded.factory,
          );
        }
      });
    });
  });
});
