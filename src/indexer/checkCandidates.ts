import { buildPairCheckRead, type PairCheck } from "../chain/buildPairCheckRead.js";
import { readPairInfo } from "../chain/readPairInfo.js";
import { type Reserves, readReserves } from "../chain/readReserves.js";
import { runBatchedReads } from "../chain/runBatchedReads.js";
import type { Address, Pair } from "../domain/types.js";
import { RpcError } from "../errors.js";
import { assertNever } from "../lib/assertNever.js";
import type { IndexerContext } from "./createIndexerContext.js";

/** A pool a token lookup found: the factory whose getPair(token, base) named it. */
export interface Candidate {
  address: Address;
  factory: Address;
  base: Address;
}

/**
 * Checks a looked-up token's candidate pools and reads their reserves at `at` (latest when
 * undefined) in one eth_call; a pool that read cannot settle (younger than `at`, or claiming
 * other tokens or another factory) is checked the long way, readPairInfo at latest.
 */
export async function checkCandidates(
  ctx: IndexerContext,
  token: Address,
  candidates: readonly Candidate[],
  at: bigint | undefined,
): Promise<{ address: Address; info: Pair | undefined; reserves: Reserves }[]> {
  const { discoveryClient, factories } = ctx;
  const reads = candidates.map((candidate) =>
    buildPairCheckRead(
      candidate.address,
      { factory: candidate.factory, tokenA: token, tokenB: candidate.base },
      factories,
    ),
  );
  let checks: PairCheck[];
  let atLatest = at === undefined;
  try {
    checks = await runBatchedReads(discoveryClient, reads, at === undefined ? {} : { blockNumber: at });
  } catch (error) {
    // As readReserves: a node without that block's state reads the latest (Sync logs correct it).
    if (at === undefined || !(error instanceof RpcError)) throw error;
    checks = await runBatchedReads(discoveryClient, reads);
    atLatest = true;
  }
  return Promise.all(
    candidates.map(async ({ address }, i) => {
      const check = checks[i]!;
      switch (check.kind) {
        case "pair": {
          if (check.reserves !== undefined) return { address, info: check.pair, reserves: check.reserves };
          // At a block, a pool without reserves did not exist yet (0/0); at latest it is no V2 pair.
          if (atLatest) {
            throw new RpcError(
              `getReserves() of ${address} returned nothing: it is not a Uniswap-V2-style pair.`,
            );
          }
          return { address, info: check.pair, reserves: { reserve0: 0n, reserve1: 0n } };
        }
        case "refused":
          return { address, info: undefined, reserves: { reserve0: 0n, reserve1: 0n } };
        case "unknown": {
          const info = await readPairInfo(discoveryClient, address, factories);
          const reserves =
            info === undefined
              ? { reserve0: 0n, reserve1: 0n }
              : await readReserves(discoveryClient, address, at);
          return { address, info, reserves };
        }
        default:
          return assertNever(check);
      }
    }),
  );
}
