import { encodeFunctionData } from "viem";
import type { Address, PoolBalances } from "../domain/types.js";
import { RpcError } from "../errors.js";
import { erc20Abi } from "./abis.js";
import { cappedMulticall } from "./cappedMulticall.js";
import type { RpcClient } from "./createRpcClient.js";
import { decodeCallResult } from "./decodeCallResult.js";

// A plain balanceOf is one storage read; an untrusted token may spend more in a view.
const BALANCE_GAS = 100_000n;

/**
 * Each pool's balanceOf of its two tokens at `blockNumber`, all in one capped multicall (one
 * eth_call for a few hundred pools): what a V3 pool holds when the indexer first meets it. Throws
 * RpcError when a token does not answer a balance there (the range is read again later).
 */
export async function readPoolBalances(
  client: RpcClient,
  pools: readonly { address: Address; token0: Address; token1: Address }[],
  blockNumber: bigint,
): Promise<PoolBalances[]> {
  if (pools.length === 0) return [];
  const calls = pools.flatMap((pool) =>
    [pool.token0, pool.token1].map((token) => ({
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [pool.address] }),
      gas: BALANCE_GAS,
      maxReturnBytes: 32,
    })),
  );
  const results = await cappedMulticall(client, calls, { blockNumber });
  return pools.map((pool, i) => {
    const [balance0, balance1] = [results[2 * i], results[2 * i + 1]].map((result) =>
      decodeCallResult(erc20Abi, "balanceOf", result),
    );
    if (typeof balance0 !== "bigint" || typeof balance1 !== "bigint") {
      throw new RpcError(`V3 pool ${pool.address}'s token balances were not read at block ${blockNumber}.`, {
        details: "balanceOf reverted or answered malformed data",
      });
    }
    return { balance0, balance1 };
  });
}
