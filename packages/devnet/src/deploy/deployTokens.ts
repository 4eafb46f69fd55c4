import { type Address, encodeDeployData, type Hash } from "viem";
import type { ChainWriter } from "../anvil/createChainWriter.js";
import type { DevnetToken } from "../devnetTypes.js";
import type { DevnetPreset } from "../presets/devnetPresets.js";
import { parseUsd } from "../usdToUnits.js";
import { createSetupBatch } from "./createSetupBatch.js";
import { devnetTokenAbi, wrappedNativeAbi } from "./devnetAbis.js";
import type { CompiledContracts } from "./loadDevnetContracts.js";

/** Sends the deployments of the wrapped native coin and every listed and unlisted token (not mined yet). */
export async function deployTokens(
  writer: ChainWriter,
  options: {
    preset: DevnetPreset;
    bytecode: CompiledContracts;
    deployer: Address;
    /** Minted to the deployer in the constructor, e.g. what the pools need. */
    initialSupply: (symbol: string) => bigint;
  },
): Promise<{ wrapped: DevnetToken; tokens: Map<string, DevnetToken>; hashes: Hash[] }> {
  const { preset, bytecode, deployer } = options;
  const batch = createSetupBatch(writer, deployer);
  const deploy = batch.deploy;

  const wrapped: DevnetToken = {
    symbol: preset.wrapped.symbol,
    name: preset.wrapped.name,
    decimals: 18,
    address: deploy(
      encodeDeployData({
        abi: wrappedNativeAbi,
        bytecode: bytecode.WrappedNative,
        args: [preset.wrapped.name, preset.wrapped.symbol],
      }),
      3_000_000n,
    ),
    priceE18: parseUsd(preset.native.priceUsd),
    listed: true,
    isWrappedNative: true,
  };
  const tokens = new Map<string, DevnetToken>([[wrapped.symbol, wrapped]]);
  const specs = [
    ...preset.tokens.map((spec) => ({ spec, listed: true })),
    ...preset.unlisted.map((spec) => ({ spec, listed: false })),
  ];
  for (const { spec, listed } of specs) {
    const address = deploy(
      encodeDeployData({
        abi: devnetTokenAbi,
        bytecode: bytecode.DevnetToken,
        args: [spec.name, spec.symbol, spec.decimals, options.initialSupply(spec.symbol)],
      }),
      3_000_000n,
    );
    tokens.set(spec.symbol, {
      symbol: spec.symbol,
      name: spec.name,
      decimals: spec.decimals,
      address,
      priceE18: parseUsd(spec.priceUsd),
      listed,
      isWrappedNative: false,
    });
  }
  return { wrapped, tokens, hashes: await writer.send(batch.txs) };
}
