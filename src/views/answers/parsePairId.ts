import { BadRequestError } from "../../errors.js";

// A pair id of the listings (CoinGecko's ticker_id, CoinMarketCap's market pair): the contract
// addresses of the pool's token0 (base) and token1 (target/quote) joined by one "_", as both
// standards show it; where several indexed pools hold the same two tokens (DEXes, fee tiers), each
// of them adds its pool address: base_target_pool (see pairIdsOf). Input accepts either form for
// any pool; the two-part form only where it names one pool.
const PAIR_ID = /^(0x[0-9a-fA-F]{40})_(0x[0-9a-fA-F]{40})(?:_(0x[0-9a-fA-F]{40}))?$/;

/** The 400 for a pair id that does not name an indexed pool (`param` names the parameter). */
export function wrongPairId(param: string): BadRequestError {
  return new BadRequestError(
    `${param} must be base_target (or base_target_pool): the contract addresses of an indexed pool's token0 and token1 (and the pool), joined by "_".`,
  );
}

/** The 400 for a two-part pair id whose tokens several indexed pools hold. */
export function ambiguousPairId(param: string, pools: readonly string[]): BadRequestError {
  return new BadRequestError(
    `${param} names ${pools.length} indexed pools of these tokens; add the pool's address: base_target_pool.`,
    { details: pools.join(", ") },
  );
}

/**
 * The token0, token1 and (when given) pool addresses of a pair id, lowercase; a 400 that names
 * `param` when it is not of either form (whether the pool is indexed with those tokens is the
 * caller's check).
 */
export function parsePairId(pairId: string, param: string): { base: string; target: string; pool?: string } {
  const match = PAIR_ID.exec(pairId);
  if (match === null) throw wrongPairId(param);
  const [base, target] = [match[1]!.toLowerCase(), match[2]!.toLowerCase()];
  return match[3] === undefined ? { base, target } : { base, target, pool: match[3].toLowerCase() };
}

/** A pool's tokens and address. */
export interface PairedPool {
  address: string;
  token0: string;
  token1: string;
}

/**
 * The pair id of each pool (by address): base_target where no other pool of `pools` holds the same
 * token0 and token1, else base_target_pool. `pools` is every indexed pool of the network, listed or
 * not, so that the ids do not depend on which pools have a price.
 */
export function pairIdsOf(pools: Iterable<PairedPool>): Map<string, string> {
  const all = [...pools];
  const holders = new Map<string, number>();
  const pairOf = (pool: PairedPool) => `${pool.token0}_${pool.token1}`;
  for (const pool of all) holders.set(pairOf(pool), (holders.get(pairOf(pool)) ?? 0) + 1);
  return new Map(
    all.map((pool) => [
      pool.address,
      holders.get(pairOf(pool)) === 1 ? pairOf(pool) : `${pairOf(pool)}_${pool.address}`,
    ]),
  );
}
