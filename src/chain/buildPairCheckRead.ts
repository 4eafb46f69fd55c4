import { type Address, encodeFunctionData } from "viem";
import type { Pair } from "../domain/types.js";
import { factoryAbi, pairAbi } from "./abis.js";
import { METADATA_GAS } from "./buildTokenMetadataRead.js";
import { decodeCallResult } from "./decodeCallResult.js";
import type { CappedCall } from "./decodeCappedMulticall.js";
import type { FactoryRef } from "./readPairInfo.js";
import type { Reserves } from "./readReserves.js";
import type { BatchedRead } from "./runBatchedReads.js";

/** What one read of a candidate pool found at its block. */
export type PairCheck =
  /** A pair of a configured factory, as readPairInfo accepts them; reserves undefined when getReserves() answered nothing. */
  | { kind: "pair"; pair: Pair; reserves: Reserves | undefined }
  /** Not a pair of a configured factory, as readPairInfo refuses them. */
  | { kind: "refused" }
  /** This read cannot tell: no code at the block, or the pool claims another factory or other tokens. */
  | { kind: "unknown" };

function lowerAddress(value: unknown): Address | undefined {
  return typeof value === "string" ? (value.toLowerCase() as Address) : undefined;
}

// A V2 pair's getters cost a few thousand gas; its answers are one word, getReserves() three.
function pairCall(pair: Address, functionName: "token0" | "token1" | "factory" | "getReserves"): CappedCall {
  const data = encodeFunctionData({ abi: pairAbi, functionName });
  return { to: pair, data, gas: METADATA_GAS, maxReturnBytes: functionName === "getReserves" ? 96 : 32 };
}

/**
 * The calls that check a pool `found` by factory.getPair(tokenA, tokenB) and read its reserves,
 * and their decoding with readPairInfo's rules: token0(), token1() and factory() must name a
 * configured factory whose getPair(token0, token1) is this pool. That getPair is asked of the
 * factory that found the pool, for the sorted tokens, which is what a genuine pair claims; a
 * pool that claims anything else, or has no code at the block read, is "unknown" and must be
 * checked with readPairInfo.
 */
export function buildPairCheckRead(
  address: Address,
  found: { factory: Address; tokenA: Address; tokenB: Address },
  factories: readonly FactoryRef[],
): BatchedRead<PairCheck> {
  const pair = address.toLowerCase() as Address;
  const factory = found.factory.toLowerCase() as Address;
  const [low, high] = [found.tokenA.toLowerCase(), found.tokenB.toLowerCase()].sort() as [Address, Address];
  return {
    calls: [
      pairCall(pair, "token0"),
      pairCall(pair, "token1"),
      pairCall(pair, "factory"),
      pairCall(pair, "getReserves"),
      {
        to: factory,
        data: encodeFunctionData({ abi: factoryAbi, functionName: "getPair", args: [low, high] }),
        gas: METADATA_GAS,
        maxReturnBytes: 32,
      },
    ],
    decode([token0Answer, token1Answer, factoryAnswer, reservesAnswer, registeredAnswer]) {
      const getters = [token0Answer, token1Answer, factoryAnswer];
      if (getters.every((answer) => answer?.ok === true && answer.size === 0)) return { kind: "unknown" };
      const token0 = lowerAddress(decodeCallResult(pairAbi, "token0", token0Answer));
      const token1 = lowerAddress(decodeCallResult(pairAbi, "token1", token1Answer));
      const claimed = lowerAddress(decodeCallResult(pairAbi, "factory", factoryAnswer));
      if (token0 === undefined || token1 === undefined || claimed === undefined || token0 === token1) {
        return { kind: "refused" };
      }
      const dex = factories.find((candidate) => candidate.factory.toLowerCase() === claimed);
      if (dex === undefined) return { kind: "refused" };
      if (claimed !== factory || token0 !== low || token1 !== high) return { kind: "unknown" };
      if (lowerAddress(decodeCallResult(factoryAbi, "getPair", registeredAnswer)) !== pair) {
        return { kind: "refused" };
      }
      const reserves = decodeCallResult(pairAbi, "getReserves", reservesAnswer);
      return {
        kind: "pair",
        pair: { address: pair, dex: dex.name, factory: claimed, token0, token1, feeBps: dex.feeBps },
        reserves: Array.isArray(reserves) ? { reserve0: reserves[0], reserve1: reserves[1] } : undefined,
      };
    },
  };
}
