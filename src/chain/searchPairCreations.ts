import type { Address, Pair } from "../domain/types.js";
import { classifyRpcError, shrunkRange } from "./classifyRpcError.js";
import type { RpcClient } from "./createRpcClient.js";
import { type BlockInterval, narrowCreationBlocks } from "./narrowCreationBlocks.js";
import { type CreationLog, readPairCreationLogs } from "./readPairCreationLogs.js";

// Pools per eth_getLogs: their factories and tokens go in the filter (token lists cross, so the
// answer stays a handful of logs per pool).
const POOLS_PER_LOG_READ = 100;

/** What a search found, and the block span the provider accepted. */
interface SearchOutcome {
  found: Map<Address, CreationLog>;
  /** The span the last eth_getLogs calls were sent with (smaller than asked after refusals). */
  span: number;
}

/** Pools whose intervals fit in one range of `span` blocks together, in block order. */
function groupBySpan(pairs: readonly Pair[], intervals: ReadonlyMap<Address, BlockInterval>, span: number) {
  const sorted = [...pairs].sort((a, b) => {
    const x = intervals.get(a.address)!.low;
    const y = intervals.get(b.address)!.low;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const groups: { pairs: Pair[]; from: bigint; to: bigint }[] = [];
  for (const pair of sorted) {
    const { low, high } = intervals.get(pair.address)!;
    const last = groups.at(-1);
    const to = last === undefined || high > last.to ? high : last.to;
    if (last !== undefined && to - last.from + 1n <= BigInt(span) && last.pairs.length < POOLS_PER_LOG_READ) {
      last.pairs.push(pair);
      last.to = to;
    } else groups.push({ pairs: [pair], from: low, to: high });
  }
  return groups;
}

/**
 * The creation logs of `pairs` on a provider that caps eth_getLogs ranges at `span` blocks: each
 * pool's creation block is bisected on its nonce between block 0 and its top (`tops`: a block where
 * it exists) down to `span` blocks (narrowCreationBlocks), then one eth_getLogs per group of pools
 * whose ranges fit in `span` blocks together reads their creation logs (readPairCreationLogs). A
 * range the provider refuses even so shrinks `span` (to what it suggests, else half) and the
 * search goes on for those pools. Throws what the RPC throws otherwise (a node without old state
 * among them).
 */
export async function searchPairCreations(
  client: RpcClient,
  pairs: readonly Pair[],
  tops: ReadonlyMap<Address, bigint>,
  initialSpan: number,
): Promise<SearchOutcome> {
  const intervals = new Map<Address, BlockInterval>(
    pairs.map((pair) => [pair.address, { low: 0n, high: tops.get(pair.address)! }]),
  );
  const outcome: SearchOutcome = {
    found: new Map(),
    span: Math.max(1, initialSpan),
  };
  let pending = [...pairs];
  while (pending.length > 0) {
    const narrowing = new Map(pending.map((pair) => [pair.address, intervals.get(pair.address)!]));
    await narrowCreationBlocks(client, narrowing, outcome.span);
    const groups = groupBySpan(pending, intervals, outcome.span);
    const refused: Pair[] = [];
    await Promise.all(
      groups.map(async (group) => {
        try {
          const logs = await readPairCreationLogs(client, group.pairs, group.from, group.to);
          for (const [pool, log] of logs) outcome.found.set(pool, log);
        } catch (error) {
          const asked = Number(group.to - group.from + 1n);
          if (classifyRpcError(error, "eth_getLogs") !== "range" || asked <= 1) throw error;
          outcome.span = Math.min(outcome.span, shrunkRange(error, asked));
          refused.push(...group.pairs);
        }
      }),
    );
    pending = refused;
  }
  return outcome;
}
