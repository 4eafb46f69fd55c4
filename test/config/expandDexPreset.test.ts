import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { DEX_PRESETS } from "../../src/config/dexPresets.js";
import { parseConfigJson } from "../../src/config/loadConfig.js";
import { ConfigError } from "../../src/errors.js";

const mainnet = new URL("../../config/mainnet.json", import.meta.url).pathname;

/** config/mainnet.json with its first network (bsc, chain 56) holding only `dexes`. */
function bscWith(dexes: unknown[], chainId = 56): unknown {
  const json = JSON.parse(readFileSync(mainnet, "utf8")) as { networks: Record<string, unknown>[] };
  return { networks: [{ ...json.networks[0], chainId, dexes }] };
}

const dexesOf = (json: unknown) => parseConfigJson(json, "test.json").networks[0]!.dexes;

describe("dexes[].preset", () => {
  test("behavior: a preset expands for the network's chain id to kind, factory, deployer and fee", () => {
    const v3 = DEX_PRESETS["pancakeswap-v3"][56]!;
    expect(dexesOf(bscWith([{ name: "pancakeswap-v3", preset: "pancakeswap-v3" }]))).toEqual([
      {
        name: "pancakeswap-v3",
        kind: "pancakeswap-v3",
        factory: v3.factory,
        deployer: v3.deployer,
        feeBps: 0,
      },
    ]);
    const v2 = DEX_PRESETS["pancakeswap-v2"][56]!;
    expect(dexesOf(bscWith([{ name: "cake", preset: "pancakeswap-v2" }]))).toEqual([
      { name: "cake", kind: "uniswap-v2", factory: v2.factory, feeBps: 25 },
    ]);
  });

  test("behavior: the router comes with a preset that publishes one", () => {
    const uniswap = DEX_PRESETS["uniswap-v3"][1]!;
    expect(dexesOf(bscWith([{ name: "uni", preset: "uniswap-v3" }], 1))).toEqual([
      { name: "uni", kind: "uniswap-v3", factory: uniswap.factory, router: uniswap.router, feeBps: 0 },
    ]);
  });

  test("args: the entry's own keys win over the preset's", () => {
    const [dex] = dexesOf(
      bscWith([
        {
          name: "cake",
          preset: "pancakeswap-v2",
          router: "0x10ED43C718714eb63d5aA57B78B54704E256024E",
          feeBps: 20,
          factory: "0x00000000000000000000000000000000000000AA",
        },
      ]),
    );
    expect(dex).toEqual({
      name: "cake",
      kind: "uniswap-v2",
      factory: "0x00000000000000000000000000000000000000aa",
      router: "0x10ed43c718714eb63d5aa57b78b54704e256024e",
      feeBps: 20,
    });
  });

  test("behavior: entries without a preset load as before (kind defaults to uniswap-v2)", () => {
    expect(
      dexesOf(bscWith([{ name: "x", factory: "0x00000000000000000000000000000000000000Bb", feeBps: 30 }])),
    ).toEqual([
      { name: "x", kind: "uniswap-v2", factory: "0x00000000000000000000000000000000000000bb", feeBps: 30 },
    ]);
  });

  test("error: an unknown preset names the field and the presets there are", () => {
    expect(() => dexesOf(bscWith([{ name: "x", preset: "sushiswap" }]))).toThrowErrorMatchingInlineSnapshot(
      `[ConfigError: Invalid configuration in test.json: networks.0.dexes.0.preset: unknown preset "sushiswap": expected one of pancakeswap-v2, pancakeswap-v3, uniswap-v2, uniswap-v3]`,
    );
  });

  test("error: a preset with no deployment on the network's chain names the field and the chains it has", () => {
    expect(() =>
      dexesOf(
        bscWith([
          { name: "ok", preset: "pancakeswap-v3" },
          { name: "uni", preset: "uniswap-v2" },
        ]),
      ),
    ).toThrowErrorMatchingInlineSnapshot(
      `[ConfigError: Invalid configuration in test.json: networks.0.dexes.1.preset: preset "uniswap-v2" has no official deployment on chain 56 (it has on chain 1): give kind and factory instead]`,
    );
    expect(() => dexesOf(bscWith([{ name: "cake", preset: "pancakeswap-v3" }], 137))).toThrow(ConfigError);
  });

  test("error: without a preset, a factory is needed; feeBps only for uniswap-v2", () => {
    expect(() => dexesOf(bscWith([{ name: "x", feeBps: 30 }]))).toThrow(
      /networks\.0\.dexes\.0\.factory: expected the DEX's factory address, or a preset that gives it/,
    );
    expect(() =>
      dexesOf(bscWith([{ name: "x", factory: "0x00000000000000000000000000000000000000bb" }])),
    ).toThrow(/networks\.0\.dexes\.0\.feeBps: a uniswap-v2 DEX needs its feeBps/);
    expect(() => dexesOf(bscWith([{ name: "x", preset: "pancakeswap-v3", feeBps: 25 }]))).toThrow(
      /networks\.0\.dexes\.0\.feeBps: a pancakeswap-v3 DEX has a fee per pool: leave feeBps out/,
    );
  });

  test("error: a V3 preset turned into a uniswap-v2 entry needs its own feeBps (the preset's 0 is no V2 fee)", () => {
    expect(() => dexesOf(bscWith([{ name: "x", preset: "pancakeswap-v3", kind: "uniswap-v2" }]))).toThrow(
      /dexes\.0\.feeBps: a uniswap-v2 DEX needs its feeBps/,
    );
  });
});
