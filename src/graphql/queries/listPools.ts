import type { Address, NetworkName } from "../../domain/types.js";
import { NATIVE } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import type { PoolState } from "../../pricing/types.js";
import { assertNetworkConfigured, assertNetworkReady } from "../../views/assertNetworkReady.js";
import { getPoolLiquidityUsd } from "../../views/getPoolLiquidityUsd.js";
import { parseTokenInput, resolveToken } from "../../views/resolveToken.js";
import { loadAllDayTotals } from "../context/createDayStatsLoaders.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { decodeRankCursor, type Ranked, type RankedPage, rankedPage } from "./rankedPage.js";

/** How the pools query orders: the GraphQL enum's values. */
type PoolOrder = "LIQUIDITY" | "VOLUME_24H";

/** Arguments of the pools query (null where GraphQL passes an explicit null). */
export interface PoolsArgs {
  network: NetworkName;
  token?: string | null | undefined;
  kind?: "V2" | "V3" | null | undefined;
  orderBy?: PoolOrder | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}

/** A pool with the network it belongs to: what the Pool type's fields resolve from. */
export type PoolSource = PoolState & { network: NetworkName };

/** A Relay-style page of pools. */
export type PoolPage = RankedPage<PoolSource>;

/** Largest page. */
const MAX_POOLS_PAGE = 100;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * One page of the network's indexed pools (all, or those holding `token`; the native coin means
 * its wrapped token), ordered by USD liquidity or 24-hour USD volume, highest first, then by
 * address; `after` continues after a cursor's (value, address). Liquidity is computed in memory
 * from the live reserves; volume is one batched store read of the pools' hourly candles (reused
 * by the page's fields). Throws 400 for bad arguments, 503 when the network is not ready.
 */
export async function listPools(args: PoolsArgs, ctx: GraphqlContext): Promise<PoolPage> {
  const { reader } = ctx;
  const { network } = args;
  assertNetworkConfigured(reader, network);
  const order = args.orderBy ?? "LIQUIDITY";
  const first = args.first ?? 20;
  if (!Number.isInteger(first) || first < 1 || first > MAX_POOLS_PAGE) {
    throw new BadRequestError(`first must be between 1 and ${MAX_POOLS_PAGE}.`);
  }
  const after =
    args.after === undefined || args.after === null
      ? undefined
      : decodeRankCursor("pools", order, args.after);
  const tokenInput =
    args.token === undefined || args.token === null ? undefined : parseTokenInput(args.token, "token");
  assertNetworkReady(reader, network, ctx.nowMs);

  const index = reader.getPoolIndex(network);
  let pools: readonly PoolState[];
  if (tokenInput === undefined) {
    pools = index.all();
  } else {
    const token = await resolveToken(reader, network, tokenInput, "token");
    const address = token.address === NATIVE ? reader.getConfig(network).native.wrapped : token.address;
    pools = index.poolsOf(address as Address);
  }
  if (args.kind === "V2" || args.kind === "V3") {
    const v3 = args.kind === "V3";
    pools = pools.filter((pool) => (pool.v3 !== undefined) === v3);
  }
  const rank = (pool: PoolState, key: bigint): Ranked<PoolSource> => ({
    node: { ...pool, network },
    key,
    address: pool.address,
  });
  let ranked: Ranked<PoolSource>[];
  if (order === "LIQUIDITY") {
    ranked = pools.map((pool) => rank(pool, getPoolLiquidityUsd(reader, network, pool) ?? -1n));
  } else {
    const totals = await loadAllDayTotals(reader, network, "pool", ctx.now);
    // No bucket: no trade, a known zero; an unknown USD value sorts last.
    ranked = pools.map((pool) => {
      const total = totals.get(pool.address);
      return rank(pool, total === undefined ? 0n : (total.volumeUsd ?? -1n));
    });
  }
  return rankedPage(ranked, order, first, after);
}

/**
 * One indexed pool by address, or null when the network indexes no pool there. Throws 400 for a
 * malformed address, 503 when the network is not ready.
 */
export function getPool(
  args: { network: NetworkName; address: string },
  ctx: GraphqlContext,
): PoolSource | null {
  const { reader } = ctx;
  const { network } = args;
  assertNetworkConfigured(reader, network);
  if (!ADDRESS.test(args.address)) {
    throw new BadRequestError("address must be an address: 0x followed by 40 hex digits.");
  }
  assertNetworkReady(reader, network, ctx.nowMs);
  const pool = reader.getPoolIndex(network).get(args.address.toLowerCase() as Address);
  return pool === undefined ? null : { ...pool, network };
}
