import { decodeLiquidityEventCursor, encodeLiquidityEventCursor } from "../../api/liquidityEventCursor.js";
import { MAX_SWAPS_PAGE } from "../../api/maxSwapsPage.js";
import type { LiquidityEventQuery } from "../../domain/market.js";
import { type Address, type LiquidityEvent, NATIVE, type NetworkName } from "../../domain/types.js";
import { BadRequestError, UnknownSymbolError } from "../../errors.js";
import { assertNetworkConfigured, assertNetworkReady } from "../../views/assertNetworkReady.js";
import { findSymbol, parseTokenInput } from "../../views/resolveToken.js";
import type { MarketHistory, MarketState } from "../../views/types.js";

/** Arguments of the liquidityEvents query (null where GraphQL passes an explicit null). */
export interface LiquidityEventsArgs {
  network: NetworkName;
  pool?: string | null | undefined;
  token?: string | null | undefined;
  from?: number | null | undefined;
  to?: number | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  atBlock?: bigint | null | undefined;
}

/** A Relay-style page of liquidity events (edge cursors are derived from the node when asked for). */
export interface LiquidityEventPage {
  edges: { node: LiquidityEvent }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const DAY = 86_400;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function present<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/** The pool filter: an indexed pool's address, else 400. */
function poolFilter(reader: MarketState & MarketHistory, network: NetworkName, value: string): Address {
  if (!ADDRESS.test(value))
    throw new BadRequestError("pool must be an address: 0x followed by 40 hex digits.");
  const address = value.toLowerCase() as Address;
  if (reader.getPoolIndex(network).get(address) === undefined) {
    throw new BadRequestError(`Pool ${address} is not an indexed pool on ${network}.`);
  }
  return address;
}

/** The token filter: a symbol of the token list or an address; the native coin means its wrapped token. */
function tokenFilter(reader: MarketState & MarketHistory, network: NetworkName, value: string): Address {
  const input = parseTokenInput(value, "token");
  if (input.kind === "address") return input.address;
  const token = findSymbol(reader, network, input.symbol);
  if (token === undefined) throw new UnknownSymbolError({ param: "token", symbol: input.symbol, network });
  return token.address === NATIVE ? reader.getConfig(network).native.wrapped : (token.address as Address);
}

/**
 * One page of the liquidity events (V2 and V3 mints and burns) with from <= timestamp < to
 * (default: the last 24 hours), optionally of one pool or of the pools holding one token, after a
 * cursor, at or below a block and the block the views' pools reflect: one keyset read of first + 1
 * rows from the store (the extra row tells whether a next page exists). Throws 400 for bad
 * arguments, 503 when the network is not ready or its data is stale at `nowMs`.
 */
export async function listLiquidityEvents(
  reader: MarketState & MarketHistory,
  args: LiquidityEventsArgs,
  nowMs: number,
): Promise<LiquidityEventPage> {
  const { network } = args;
  assertNetworkConfigured(reader, network);
  const first = args.first ?? 100;
  if (!Number.isInteger(first) || first < 1 || first > MAX_SWAPS_PAGE) {
    throw new BadRequestError(`first must be between 1 and ${MAX_SWAPS_PAGE}.`);
  }
  const from = args.from ?? Math.floor(nowMs / 1000) - DAY;
  const to = args.to ?? undefined;
  if (to !== undefined && from > to) throw new BadRequestError("from must not be later than to.");
  const atBlock = args.atBlock ?? undefined;
  if (atBlock !== undefined && atBlock < 0n) throw new BadRequestError("atBlock must not be negative.");
  const after = present(args.after) ? decodeLiquidityEventCursor(args.after) : undefined;
  const token = present(args.token) ? tokenFilter(reader, network, args.token) : undefined;
  if (present(args.pool) && !ADDRESS.test(args.pool)) {
    throw new BadRequestError("pool must be an address: 0x followed by 40 hex digits.");
  }
  assertNetworkReady(reader, network, nowMs);
  // Whether a pool is indexed is known once the network serves (its pools are loaded).
  const pool = present(args.pool) ? poolFilter(reader, network, args.pool) : undefined;
  // Never above the block the views' pools reflect: a replica's store may already hold events of
  // a pair its pool graph has not loaded yet, and every event is shown with its pool.
  const indexed = reader.poolsBlock(network);
  const maxBlock = indexed !== undefined && (atBlock === undefined || indexed < atBlock) ? indexed : atBlock;

  const query: LiquidityEventQuery = {
    // The cursor's timestamp narrows the read: block timestamps never decrease along the chain.
    fromTimestamp: after === undefined ? from : Math.max(from, after.timestamp),
    limit: first + 1,
    ...(to === undefined ? {} : { toTimestamp: to }),
    ...(after === undefined ? {} : { after: { blockNumber: after.blockNumber, logIndex: after.logIndex } }),
    ...(maxBlock === undefined ? {} : { maxBlock }),
    ...(pool === undefined ? {} : { pool }),
    ...(token === undefined ? {} : { token }),
  };
  const events = await reader.listLiquidityEvents(network, query);
  const hasNextPage = events.length > first;
  const edges = (hasNextPage ? events.slice(0, first) : events).map((node) => ({ node }));
  const last = edges.at(-1);
  return {
    edges,
    pageInfo: { hasNextPage, endCursor: last === undefined ? null : encodeLiquidityEventCursor(last.node) },
  };
}
