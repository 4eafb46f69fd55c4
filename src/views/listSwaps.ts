import { MAX_SWAPS_PAGE } from "../api/maxSwapsPage.js";
import { decodeSwapCursor, encodeSwapCursor } from "../api/swapCursor.js";
import type { TradePageQuery } from "../domain/market.js";
import type { Address, NetworkName, TokenRef, Trade } from "../domain/types.js";
import { BadRequestError, UnknownSymbolError } from "../errors.js";
import { assertNetworkConfigured, assertNetworkReady } from "./assertNetworkReady.js";
import { findSymbol, parseTokenInput } from "./resolveToken.js";
import type { MarketHistory, MarketState } from "./types.js";

/** Arguments of the swaps query and of the /api lists' pages (null where GraphQL passes an explicit null). */
export interface SwapsArgs {
  network: NetworkName;
  from?: number | null | undefined;
  to?: number | null | undefined;
  token?: string | null | undefined;
  trader?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  atBlock?: bigint | null | undefined;
  /** A decimal string (the Decimal scalar): USD. */
  minVolumeUSD?: string | null | undefined;
  /** Only swaps through this indexed pool (Query.poolSwaps; validated there), with their marks. */
  pool?: Address;
}

/** A Relay-style page of swaps (edge cursors are derived from the node when asked for). */
export interface TradePage {
  edges: { node: Trade }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const DAY = 86_400;
const USD_DECIMALS = 18;

/**
 * A minimum USD value (a Decimal) as the 10^18-scaled integer trades' volumeUsd is kept in: digits
 * past the 18th round up, so "at least the value" stays exact. Throws 400 for a negative value.
 * @internal exported for tests, which call this step alone.
 */
export function parseMinVolumeUsd(value: string): bigint {
  if (value.startsWith("-")) throw new BadRequestError("minVolumeUSD must not be negative.");
  const [whole = "0", fraction = ""] = value.split(".");
  const kept = fraction.slice(0, USD_DECIMALS).padEnd(USD_DECIMALS, "0");
  const scaled = BigInt(whole + kept);
  return /[1-9]/.test(fraction.slice(USD_DECIMALS)) ? scaled + 1n : scaled;
}
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function tokenFilter(reader: MarketState & MarketHistory, network: NetworkName, value: string): TokenRef {
  const input = parseTokenInput(value, "token");
  if (input.kind === "address") return input.address;
  const token = findSymbol(reader, network, input.symbol);
  if (token === undefined) {
    throw new UnknownSymbolError({ param: "token", symbol: input.symbol, network });
  }
  return token.address;
}

/** The token and trader filters of the swaps query and subscription; throws 400 when malformed. */
export function parseSwapFilter(
  reader: MarketState & MarketHistory,
  network: NetworkName,
  args: { token?: string | null | undefined; trader?: string | null | undefined },
): { token?: TokenRef; sender?: Address } {
  let sender: Address | undefined;
  if (args.trader !== undefined && args.trader !== null) {
    if (!ADDRESS.test(args.trader)) {
      throw new BadRequestError("trader must be an address: 0x followed by 40 hex digits.");
    }
    sender = args.trader.toLowerCase() as Address;
  }
  const token =
    args.token === undefined || args.token === null ? undefined : tokenFilter(reader, network, args.token);
  return { ...(token === undefined ? {} : { token }), ...(sender === undefined ? {} : { sender }) };
}

/**
 * One page of the swaps with from <= timestamp < to (default: the last 24 hours), optionally of
 * one token or trader, after a cursor, at or below a block: one keyset read of first + 1 rows
 * from the store (the extra row tells whether a next page exists). Throws 400 for bad
 * arguments, 503 when the network is not ready or its data is stale at `nowMs` (not for a read of
 * `settled` blocks, kept for later answers: a backfill renders them before the network serves).
 * GraphQL's `swaps` and the pages of /api/swaps_24h and /api/swaps_export are this one read.
 */
export async function listSwaps(
  reader: MarketState & MarketHistory,
  args: SwapsArgs,
  nowMs: number,
  options: { settled?: boolean } = {},
): Promise<TradePage> {
  const { network } = args;
  assertNetworkConfigured(reader, network);
  const first = args.first ?? 100;
  if (!Number.isInteger(first) || first < 1 || first > MAX_SWAPS_PAGE) {
    throw new BadRequestError(`first must be between 1 and ${MAX_SWAPS_PAGE}.`);
  }
  const from = args.from ?? Math.floor(nowMs / 1000) - DAY;
  const to = args.to ?? undefined;
  if (to !== undefined && from > to) throw new BadRequestError("from must not be later than to.");
  const { token, sender } = parseSwapFilter(reader, network, args);
  const atBlock = args.atBlock ?? undefined;
  if (atBlock !== undefined && atBlock < 0n) throw new BadRequestError("atBlock must not be negative.");
  const after = args.after === undefined || args.after === null ? undefined : decodeSwapCursor(args.after);
  const minVolumeUsd =
    args.minVolumeUSD === undefined || args.minVolumeUSD === null
      ? undefined
      : parseMinVolumeUsd(args.minVolumeUSD);
  if (options.settled !== true) assertNetworkReady(reader, network, nowMs);

  const query: TradePageQuery = {
    // The cursor's timestamp narrows the read: block timestamps never decrease along the chain.
    fromTimestamp: after === undefined ? from : Math.max(from, after.timestamp),
    limit: first + 1,
    ...(to === undefined ? {} : { toTimestamp: to }),
    ...(after === undefined
      ? {}
      : { after: { blockNumber: after.blockNumber, txIndex: after.txIndex, logIndex: after.logIndex } }),
    ...(atBlock === undefined ? {} : { maxBlock: atBlock }),
    ...(token === undefined ? {} : { token }),
    ...(sender === undefined ? {} : { sender }),
    ...(minVolumeUsd === undefined ? {} : { minVolumeUsd }),
    ...(args.pool === undefined ? {} : { pool: args.pool }),
  };
  const trades = await reader.listTrades(network, query);
  const hasNextPage = trades.length > first;
  const edges = (hasNextPage ? trades.slice(0, first) : trades).map((node) => ({ node }));
  const last = edges.at(-1);
  return {
    edges,
    pageInfo: { hasNextPage, endCursor: last === undefined ? null : encodeSwapCursor(last.node) },
  };
}
