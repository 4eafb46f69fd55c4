import type { Address } from "viem";
import type { DexConfig } from "../config/types.js";
import type { Pair } from "../domain/types.js";
import { pairAbi } from "./abis.js";
import type { RpcClient } from "./createRpcClient.js";
import { getPairAddress } from "./getPairAddress.js";
import { tryReadContract } from "./tryReadContract.js";

/** A configured factory as readPairInfo needs it. */
export type FactoryRef = Pick<DexConfig, "name" | "factory" | "feeBps">;

function asAddress(value: unknown): Address | undefined {
  return typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)
    ? (value.toLowerCase() as Address)
    : undefined;
}

/**
 * Token0, token1 and factory of a pool contract, accepted only if the factory is configured AND
 * that factory's getPair(token0, token1) returns this address: a contract cannot join the index
 * by claiming a factory. Undefined when it is not a pair of a configured factory.
 */
export async function readPairInfo(
  client: RpcClient,
  address: Address,
  factories: readonly FactoryRef[],
): Promise<Pair | undefined> {
  const pair = address.toLowerCase() as Address;
  const [token0, token1, factory] = await Promise.all(
    (["token0", "token1", "factory"] as const).map(async (functionName) =>
      asAddress(await tryReadContract(client, { address: pair, abi: pairAbi, functionName })),
    ),
  );
  if (token0 === undefined || token1 === undefined || factory === undefined || token0 === token1)
    return undefined;
  const dex = factories.find((candidate) => candidate.factory.toLowerCase() === factory);
  if (dex === undefined) return undefined;
  const registered = await getPairAddress(client, factory, token0, token1);
  if (registered !== pair) return undefined;
  return { address: pair, dex: dex.name, factory, token0, token1, feeBps: dex.feeBps };
}
