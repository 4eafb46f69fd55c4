import { type Address, encodeFunctionData } from "viem";
import type { Pair } from "../domain/types.js";
import { pairAbi } from "./abis.js";
import { buildPairAddressRead } from "./buildPairAddressRead.js";
import { METADATA_GAS } from "./buildTokenMetadataRead.js";
import type { RpcClient } from "./createRpcClient.js";
import { decodeCallResult } from "./decodeCallResult.js";
import type { CappedCall } from "./decodeCappedMulticall.js";
import type { FactoryRef } from "./readPairInfo.js";
import { type BatchedRead, runBatchedReads } from "./runBatchedReads.js";

const GETTERS = ["token0", "token1", "factory"] as const;

function asAddress(value: unknown): Address | undefined {
  return typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)
    ? (value.toLowerCase() as Address)
    : undefined;
}

/**
 * readPairInfo for many pools at once, by the same rule (a configured factory's getPair(token0,
 * token1) must name the pool), in two eth_calls whatever their number (cappedMulticall, each
 * getter capped in gas and bytes): the pools' token0, token1 and factory, then getPair on the
 * factories they claim. Undefined for a pool that is not a pair of a configured factory.
 */
export async function readPairInfos(
  client: RpcClient,
  addresses: readonly Address[],
  factories: readonly FactoryRef[],
): Promise<(Pair | undefined)[]> {
  if (addresses.length === 0) return [];
  const pools = addresses.map((address) => address.toLowerCase() as Address);
  const getters = pools.map(
    (pool): BatchedRead<(Address | undefined)[]> => ({
      calls: GETTERS.map(
        (functionName): CappedCall => ({
          to: pool,
          data: encodeFunctionData({ abi: pairAbi, functionName }),
          gas: METADATA_GAS,
          maxReturnBytes: 32,
        }),
      ),
      decode: (results) =>
        GETTERS.map((functionName, i) => asAddress(decodeCallResult(pairAbi, functionName, results[i]))),
    }),
  );
  const claimed = await runBatchedReads(client, getters);
  const candidates = pools.flatMap((pool, i) => {
    const [token0, token1, factory] = claimed[i]!;
    if (token0 === undefined || token1 === undefined || factory === undefined || token0 === token1) return [];
    const dex = factories.find((candidate) => candidate.factory.toLowerCase() === factory);
    return dex === undefined ? [] : [{ pool, token0, token1, factory, dex }];
  });
  const registered = await runBatchedReads(
    client,
    candidates.map(({ factory, token0, token1 }) => buildPairAddressRead(factory, token0, token1)),
  );
  const accepted = new Map<Address, Pair>();
  for (const [i, { pool, token0, token1, factory, dex }] of candidates.entries()) {
    if (registered[i] !== pool) continue;
    accepted.set(pool, { address: pool, dex: dex.name, factory, token0, token1, feeBps: dex.feeBps });
  }
  return pools.map((pool) => accepted.get(pool));
}
