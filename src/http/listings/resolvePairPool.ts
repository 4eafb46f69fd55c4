import type { NetworkName } from "../../domain/types.js";
import type { GraphqlSession, PreparedOperation } from "../../graphql/createGraphqlExecutor.js";
import { ambiguousPairId, type PairedPool, parsePairId, wrongPairId } from "./parsePairId.js";

const POOLS_PAGE = 100;

/** The fixed GraphQL operation that lists a network's pools' tokens (a page): what a two-part pair id needs. */
export const PAIR_POOLS_OPERATION = /* GraphQL */ `
  query PairPools($network: Network!, $first: Int!, $after: String) {
    networkStatus(network: $network) { indexedBlock }
    pools(network: $network, first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { node { address token0 token1 } }
    }
  }
`;

interface PairPoolsData {
  networkStatus: { indexedBlock: string | null } | null;
  pools: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { node: PairedPool }[] };
}

// The pools by token pair of the newest indexed block read, per prepared operation (one server) and
// network: one page read per request while the block lasts.
const keptByOperation = new WeakMap<
  PreparedOperation,
  Map<NetworkName, { block: string | null; byPair: Map<string, string[]> }>
>();

/** Every indexed pool's address by its "token0_token1", at the indexed block of the first page. */
async function poolsByPair(
  session: GraphqlSession,
  operation: PreparedOperation,
  network: NetworkName,
): Promise<Map<string, string[]>> {
  let kept = keptByOperation.get(operation);
  if (kept === undefined) {
    kept = new Map();
    keptByOperation.set(operation, kept);
  }
  let after: string | null = null;
  let block: string | null | undefined;
  const byPair = new Map<string, string[]>();
  do {
    const page: PairPoolsData = await session.run<PairPoolsData>(operation, {
      network,
      first: POOLS_PAGE,
      after,
    });
    if (block === undefined) {
      block = page.networkStatus?.indexedBlock ?? null;
      const known = kept.get(network);
      if (known !== undefined && known.block === block && block !== null) return known.byPair;
    }
    for (const { node } of page.pools.edges) {
      const pair = `${node.token0}_${node.token1}`;
      byPair.set(pair, [...(byPair.get(pair) ?? []), node.address]);
    }
    after = page.pools.pageInfo.hasNextPage ? page.pools.pageInfo.endCursor : null;
  } while (after !== null);
  kept.set(network, { block: block ?? null, byPair });
  return byPair;
}

/**
 * The base, target and pool a pair id names (`param` names the parameter in errors): the pool
 * itself for base_target_pool; for base_target, the one indexed pool of those tokens (400 when
 * there is none or several). Whether the pool holds those tokens is the caller's check.
 */
export async function resolvePairPool(
  session: GraphqlSession,
  operation: PreparedOperation,
  network: NetworkName,
  pairId: string,
  param: string,
): Promise<{ base: string; target: string; pool: string }> {
  const { base, target, pool } = parsePairId(pairId, param);
  if (pool !== undefined) return { base, target, pool };
  const pools = (await poolsByPair(session, operation, network)).get(`${base}_${target}`) ?? [];
  if (pools.length === 0) throw wrongPairId(param);
  if (pools.length > 1) throw ambiguousPairId(param, pools);
  return { base, target, pool: pools[0]! };
}
