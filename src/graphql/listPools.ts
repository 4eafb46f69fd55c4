import type { Address, NetworkName } from "../domain/types.js";
import { NATIVE } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import type { PoolState } from "../pricing/types.js";
import { assertNetworkConfigured, assertNetworkReady } from "./assertNetworkReady.js";
import type { GraphqlContext } from "./createGraphqlContext.js";
import { getPoolLiquidityUsd } from "./getPoolLiquidityUsd.js";
import { parseTokenInput, resolveToken } from "./resolveToken.js";

/** How the pools query orders: the GraphQL enum's values. */
export type PoolOrder = "LIQUIDITY" | "VOLUME_24H";

/** Arguments of the pools query (null where GraphQL passes an explicit null). */
export interface PoolsArgs {
  network: NetworkName;
  token?: string | null | undefined;
  orderBy?: PoolOrder | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}

/** A pool with the network it belongs to: what the Pool type's fields resolve from. */
export type PoolSource = PoolState & { network: NetworkName };

/** A Relay-style page of pools. */
export interface PoolPage {
  edges: { cursor: string; node: PoolSource }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Largest page. */
export const MAX_POOLS_PAGE = 100;
const CURSOR = /^(VOLUME_24H|LIQUIDITY):(-1|\d{1,90}):(0x[0-9a-f]{40})$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

interface Keyed {
  pool: PoolState;
  /** The order's value; -1 for a pool without one (unpriced, or volume unknown), so it sorts last. */
  key: bigint;
}

function encodeCursor(order: PoolOrder, item: Keyed): string {
  return Buffer.from(`${order}:${item.key}:${item.pool.address}`).toString("base64url");
}

function decodeCursor(order: PoolOrder, cursor: string): { key: bigint; address: string } {
  const match =
    cursor.length <= 200 ? CURSOR.exec(Buffer.from(cursor, "base64url").toString("latin1")) : null;
  if (match === null || match[1] !== order) {
    throw new BadRequestError(
      "after is not a valid cursor: pass an endCursor or edge cursor of pools with the same orderBy.",
    );
  }
  return { key: BigInt(match[2]!), address: match[3]! };
}

// Descending by the key, then ascending by address: a total order, so keyset pages never repeat.
function before(a: Keyed, b: { key: bigint; address: string }): boolean {
  return a.key !== b.key ? a.key > b.key : a.pool.address < b.address;
}

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
  const after = args.after === undefined || args.after === null ? undefined : decodeCursor(order, args.after);
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
  let keyed: Keyed[];
  if (order === "LIQUIDITY") {
    keyed = pools.map((pool) => ({ pool, key: getPoolLiquidityUsd(reader, network, pool) ?? -1n }));
  } else {
    const stats = await ctx.poolDayStats(network).loadMany(pools.map((pool) => pool.address));
    keyed = pools.map((pool, i) => {
      const value = stats[i];
      if (value instanceof Error) throw value;
      return { pool, key: value?.volumeUsd ?? -1n };
    });
  }
  keyed.sort((a, b) => (before(a, { key: b.key, address: b.pool.address }) ? -1 : 1));
  const start =
    after === undefined
      ? 0
      : keyed.findIndex(
          (item) => !before(item, after) && !(item.key === after.key && item.pool.address === after.address),
        );
  const rest = start < 0 ? [] : keyed.slice(start);
  const page = rest.slice(0, first);
  const edges = page.map((item) => ({ cursor: encodeCursor(order, item), node: { ...item.pool, network } }));
  return {
    edges,
    pageInfo: { hasNextPage: rest.length > first, endCursor: edges.at(-1)?.cursor ?? null },
  };
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
