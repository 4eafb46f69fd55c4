import { type Address, encodeDeployData, getContractAddress, type Hash } from "viem";
import type { ChainWriter, TxRequest } from "./createChainWriter.js";
import { devnetTokenAbi, wrappedNativeAbi } from "./devnetAbis.js";
import type { DevnetPreset } from "./devnetPresets.js";
import type { DevnetToken } from "./devnetTypes.js";
import type { CompiledContracts } from "./loadDevnetContracts.js";
import { parseUsd } from "./usdToUnits.js";

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
  const txs: TxRequest[] = [];
  const deploy = (data: `0x${string}`, gas: bigint): Address => {
    const nonce = writer.reserveNonce(deployer);
    txs.push({ from: deployer, data, gas, nonce });
    return getContractAddress({ from: deployer, nonce: BigInt(nonce) }).toLowerCase() as Address;
  };

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
  return { wrapped, tokens, hashes: await writer.send(txs) };
}
