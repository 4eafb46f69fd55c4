import { BadRequestError } from "../../errors.js";

/** A pair id of the listings: base_target_pool, the contract addresses of token0, token1 and the pool. */
const PAIR_ID = /^(0x[0-9a-fA-F]{40})_(0x[0-9a-fA-F]{40})_(0x[0-9a-fA-F]{40})$/;

/** The 400 for a pair id that does not name an indexed pool (`param` names the parameter). */
export function wrongPairId(param: string): BadRequestError {
  return new BadRequestError(
    `${param} must be base_target_pool: the contract addresses of an indexed pool's token0, token1 and the pool, joined by "_".`,
  );
}

/**
 * The token0, token1 and pool addresses of a pair id (lowercase); a 400 that names `param` when
 * it is not of the form (whether the pool is indexed with those tokens is the caller's check).
 */
export function parsePairId(pairId: string, param: string): { base: string; target: string; pool: string } {
  const match = PAIR_ID.exec(pairId);
  if (match === null) throw wrongPairId(param);
  return { base: match[1]!.toLowerCase(), target: match[2]!.toLowerCase(), pool: match[3]!.toLowerCase() };
}
