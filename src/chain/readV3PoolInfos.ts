import { type Address, encodeFunctionData } from "viem";
import type { Pair } from "../domain/types.js";
import { v3PoolAbi } from "./abis.js";
import { METADATA_GAS } from "./buildTokenMetadataRead.js";
import type { RpcClient } from "./createRpcClient.js";
import { decodeCallResult } from "./decodeCallResult.js";
import type { CappedCall } from "./decodeCappedMulticall.js";
import { type BatchedRead, runBatchedReads } from "./runBatchedReads.js";

/** A configured V3 factory (Uniswap V3 or PancakeSwap V3): its DEX's name and address. */
export interface V3FactoryRef {
  name: string;
  factory: Address;
}

const GETTERS = ["token0", "token1", "factory", "fee", "tickSpacing"] as const;

interface Claimed {
  token0: Address | undefined;
  token1: Address | undefined;
  factory: Address | undefined;
  fee: number | undefined;
  tickSpacing: number | undefined;
}

function asAddress(value: unknown): Address | undefined {
  return typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)
    ? (value.toLowerCase() as Address)
    : undefined;
}

function asInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

function claimRead(pool: Address): BatchedRead<Claimed> {
  return {
    calls: GETTERS.map(
      (functionName): CappedCall => ({
        to: pool,
        data: encodeFunctionData({ abi: v3PoolAbi, functionName }),
        gas: METADATA_GAS,
        maxReturnBytes: 32,
      }),
    ),
    decode: (results) => {
      const value = (i: number) => decodeCallResult(v3PoolAbi, GETTERS[i]!, results[i]);
      return {
        token0: asAddress(value(0)),
        token1: asAddress(value(1)),
        factory: asAddress(value(2)),
        fee: asInt(value(3)),
        tickSpacing: asInt(value(4)),
      };
    },
  };
}

/** The call of a V3 factory's getPool(tokenA, tokenB, fee): the pool, lowercase, or the zero address when none. */
export function buildV3PoolAddressRead(
  factory: Address,
  token0: Address,
  token1: Address,
  fee: number,
): BatchedRead<Address | undefined> {
  return {
    calls: [
      {
        to: factory,
        data: encodeFunctionData({ abi: v3PoolAbi, functionName: "getPool", args: [token0, token1, fee] }),
        gas: METADATA_GAS,
        maxReturnBytes: 32,
      },
    ],
    decode: ([result]) => asAddress(decodeCallResult(v3PoolAbi, "getPool", result)),
  };
}

/**
 * Which of `addresses` are pools of a configured V3 factory, by the rule readPairInfos applies to
 * V2 pairs: the factory the pool names must be configured and its getPool(token0, token1, fee)
 * must name the pool. Two eth_calls whatever their number. Undefined for any other contract.
 */
export async function readV3PoolInfos(
  client: RpcClient,
  addresses: readonly Address[],
  factories: readonly V3FactoryRef[],
): Promise<(Pair | undefined)[]> {
  if (addresses.length === 0) return [];
  const pools = addresses.map((address) => address.toLowerCase() as Address);
  const claimed = await runBatchedReads(client, pools.map(claimRead));
  const candidates = pools.flatMap((pool, i) => {
    const { token0, token1, factory, fee, tickSpacing } = claimed[i]!;
    if (token0 === undefined || token1 === undefined || factory === undefined || token0 === token1) return [];
    if (fee === undefined || tickSpacing === undefined || tickSpacing <= 0) return [];
    const dex = factories.find((candidate) => candidate.factory.toLowerCase() === factory);
    return dex === undefined ? [] : [{ pool, token0, token1, factory, fee, tickSpacing, dex }];
  });
  const registered = await runBatchedReads(
    client,
    candidates.map(({ factory, token0, token1, fee }) =>
      buildV3PoolAddressRead(factory, token0, token1, fee),
    ),
  );
  const accepted = new Map<Address, Pair>();
  for (const [i, { pool, token0, token1, factory, fee, tickSpacing, dex }] of candidates.entries()) {
    if (registered[i] !== pool) continue;
    accepted.set(pool, {
      address: pool,
      dex: dex.name,
      factory,
      token0,
      token1,
      feeBps: Math.floor(fee / 100),
      v3: { fee, tickSpacing },
    });
  }
  return pools.map((pool) => accepted.get(pool));
}
