import type { Address, Pair, PairCreation } from "../domain/types.js";
import { countEvent } from "../lib/countEvent.js";
import {
  classifyRpcError,
  errorText,
  findHttpError,
  isMissingState,
  suggestedRange,
} from "./classifyRpcError.js";
import type { RpcClient } from "./createRpcClient.js";
import { lookupKeysOf, readLookupLimits, recordLookupLimits } from "./creationLookupLimits.js";
import { type CreationLog, readPairCreationLogs } from "./readPairCreationLogs.js";
import type { RpcLogger } from "./rpcTypes.js";
import { searchPairCreations } from "./searchPairCreations.js";

// The span tried first when a provider refused the whole chain without naming its cap: most caps
// are 1,000 to 10,000 blocks; a further refusal halves it (or takes the span it names).
const UNNAMED_CAP_SPAN = 1_000;

/** Options of findPairCreations. */
export interface FindPairCreationsOptions {
  /** Network for the log line and the swapgraph_pool_creation_lookups_total series. */
  network?: string;
  log?: RpcLogger;
  /**
   * A block at which a pool exists (its first log the indexer read), by pool: its search's top
   * instead of the head, and its first probe a cap below it, so a pool created shortly before it
   * first logged (most are: the liquidity comes in the creating transaction) is found with one
   * nonce read. Pools missing here start from the head.
   */
  seenAt?: ReadonlyMap<Address, bigint>;
}

/** Only the host: URLs of hosted providers carry API keys in their paths. */
function hostOf(url: string | undefined): string | undefined {
  try {
    return url === undefined ? undefined : new URL(url).host;
  } catch {
    return undefined;
  }
}

/**
 * The factory logs that created `pairs` (PairCreated / PoolCreated; see readPairCreationLogs), by
 * pool. First one eth_getLogs over the whole chain (block 0 to latest: one call for all the pools,
 * where the provider allows it). A provider that refuses that range (QuickNode, Infura, Alchemy's
 * free tier: from 10 to 10,000 blocks) is remembered by URL and never asked it again: its pools'
 * creation blocks are bisected on their nonces (eth_getTransactionCount) down to the range it
 * accepts, and their logs read in such ranges (searchPairCreations; about log2(head / cap) + 1
 * calls a pool). A node without old state (not an archive node) cannot be searched: said once, and
 * its pools stay without (the fields are optional). A block's time comes with the log where the
 * node sends it (blockTimestamp), else from its header. A pair without a match is left out. Throws
 * what the RPC throws otherwise.
 */
export async function findPairCreations(
  client: RpcClient,
  pairs: readonly Pair[],
  options: FindPairCreationsOptions = {},
): Promise<Map<Address, PairCreation>> {
  if (pairs.length === 0) return new Map();
  const network = options.network ?? client.chain?.name ?? "unknown";
  const keys = lookupKeysOf(client);
  let logs: Map<Address, CreationLog> | undefined;
  let span = readLookupLimits(keys)?.span ?? UNNAMED_CAP_SPAN;
  if (readLookupLimits(keys)?.wideRefused !== true) {
    try {
      logs = await readPairCreationLogs(client, pairs, 0n, "latest");
      countEvent("pool_creation_lookups", { network, how: "whole_chain" }, pairs.length);
    } catch (error) {
      if (classifyRpcError(error, "eth_getLogs") !== "range") throw error;
      const url = findHttpError(error)?.url;
      span = Math.min(span, suggestedRange(error) ?? UNNAMED_CAP_SPAN);
      recordLookupLimits(keys, url, { wideRefused: true, span });
      options.log?.warn(
        { network, url: hostOf(url), span, error: errorText(error) },
        "rpc url refuses eth_getLogs over the whole chain; pool creations are searched by eth_getTransactionCount from now on",
      );
    }
  }
  if (logs === undefined) {
    if (readLookupLimits(keys)?.noOldState === true) {
      countEvent("pool_creation_lookups", { network, how: "unknown" }, pairs.length);
      return new Map();
    }
    try {
      const seenAt = options.seenAt;
      const head = pairs.every((pair) => seenAt?.has(pair.address)) ? 0n : await client.getBlockNumber();
      const tops = new Map(pairs.map((pair) => [pair.address, seenAt?.get(pair.address) ?? head]));
      const outcome = await searchPairCreations(client, pairs, tops, span);
      if (outcome.span < span) recordLookupLimits(keys, undefined, { span: outcome.span });
      logs = outcome.found;
      countEvent("pool_creation_lookups", { network, how: "search" }, pairs.length);
    } catch (error) {
      if (!isMissingState(error)) throw error;
      const url = findHttpError(error)?.url;
      if (recordLookupLimits(keys, url, { noOldState: true })) {
        options.log?.warn(
          { network, url: hostOf(url), error: errorText(error) },
          "rpc url has no state at old blocks (not an archive node) and refuses eth_getLogs over the whole chain: pool creation fields (createdAt*) stay unknown",
        );
      }
      countEvent("pool_creation_lookups", { network, how: "unknown" }, pairs.length);
      return new Map();
    }
  }
  return withTimes(client, logs);
}

/** The creations with their blocks' times: from the logs, else one header read per block. */
async function withTimes(client: RpcClient, logs: ReadonlyMap<Address, CreationLog>) {
  const times = new Map<bigint, number>();
  for (const log of logs.values()) if (log.timestamp !== undefined) times.set(log.blockNumber, log.timestamp);
  const missing = [...new Set([...logs.values()].map((log) => log.blockNumber))].filter((b) => !times.has(b));
  await Promise.all(
    missing.map(async (blockNumber) => {
      times.set(blockNumber, Number((await client.getBlock({ blockNumber })).timestamp));
    }),
  );
  const found = new Map<Address, PairCreation>();
  for (const [pool, { blockNumber, txHash }] of logs) {
    found.set(pool, { blockNumber, timestamp: times.get(blockNumber)!, txHash });
  }
  return found;
}
