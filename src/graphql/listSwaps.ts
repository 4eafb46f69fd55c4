import type { MarketReader } from "../domain/market.js";
import type { NetworkName, TokenRef, Trade } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import { assertNetworkConfigured, assertNetworkReady } from "./assertNetworkReady.js";
import { findSymbol, parseTokenInput } from "./resolveToken.js";
import { decodeSwapCursor, encodeSwapCursor, type SwapPosition } from "./swapCursor.js";

/** Arguments of the swaps query (null where GraphQL passes an explicit null). */
export interface SwapsArgs {
  network: NetworkName;
  from?: number | null | undefined;
  to?: number | null | undefined;
  token?: string | null | undefined;
  trader?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}

/** A Relay-style page of swaps (edge cursors are derived from the node when asked for). */
export interface SwapPage {
  edges: { node: Trade }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Largest page: bounds the work and the response of one request. */
export const MAX_SWAPS_PAGE = 1000;
const DAY = 86_400;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

// Strictly after `position` in (blockNumber, txIndex) order.
function isAfter(trade: Trade, position: SwapPosition): boolean {
  return (
    trade.blockNumber > position.blockNumber ||
    (trade.blockNumber === position.blockNumber && trade.txIndex > position.txIndex)
  );
}

// First index strictly after `position` (trades ascend by blockNumber, then txIndex).
function firstAfter(trades: readonly Trade[], position: SwapPosition): number {
  let lo = 0;
  let hi = trades.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isAfter(trades[mid]!, position)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function tokenFilter(reader: MarketReader, network: NetworkName, value: string): TokenRef {
  const input = parseTokenInput(value, "token");
  if (input.kind === "address") return input.address;
  const token = findSymbol(reader, network, input.symbol);
  if (token === undefined) {
    throw new BadRequestError(
      `token symbol ${JSON.stringify(input.symbol)} is not supported on ${network}; retry with the token's contract address.`,
    );
  }
  return token.address;
}

/**
 * One page of the swaps with from <= timestamp < to (default: the last 24 hours), optionally of
 * one token or trader, after a cursor; throws 400 for bad arguments, 503 when not ready.
 */
export function listSwaps(reader: MarketReader, args: SwapsArgs, now: number): SwapPage {
  const { network } = args;
  assertNetworkConfigured(reader, network);
  const first = args.first ?? 100;
  if (!Number.isInteger(first) || first < 1 || first > MAX_SWAPS_PAGE) {
    throw new BadRequestError(`first must be between 1 and ${MAX_SWAPS_PAGE}.`);
  }
  const from = args.from ?? now - DAY;
  const to = args.to ?? Number.MAX_SAFE_INTEGER;
  if (from > to) throw new BadRequestError("from must not be later than to.");
  let trader: string | undefined;
  if (args.trader !== undefined && args.trader !== null) {
    if (!ADDRESS.test(args.trader)) {
      throw new BadRequestError("trader must be an address: 0x followed by 40 hex digits.");
    }
    trader = args.trader.toLowerCase();
  }
  const token =
    args.token === undefined || args.token === null ? undefined : tokenFilter(reader, network, args.token);
  const after = args.after === undefined || args.after === null ? undefined : decodeSwapCursor(args.after);
  assertNetworkReady(reader, network);

  // The cursor's timestamp narrows the read: nothing before it can come after it.
  const trades = reader.listTrades(network, {
    from: after === undefined ? from : Math.max(from, after.timestamp),
    to,
  });
  const edges: SwapPage["edges"] = [];
  let hasNextPage = false;
  for (let i = after === undefined ? 0 : firstAfter(trades, after); i < trades.length; i++) {
    const trade = trades[i]!;
    if (trader !== undefined && trade.sender !== trader) continue;
    if (token !== undefined && trade.tokenIn !== token && trade.tokenOut !== token) continue;
    if (edges.length === first) {
      hasNextPage = true;
      break;
    }
    edges.push({ node: trade });
  }
  const last = edges.at(-1);
  return {
    edges,
    pageInfo: { hasNextPage, endCursor: last === undefined ? null : encodeSwapCursor(last.node) },
  };
}
