import type { Address, NetworkName, Token } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import { assertNetworkConfigured, assertNetworkReady } from "./assertNetworkReady.js";
import type { GraphqlContext } from "./createGraphqlContext.js";
import { getTokenValuation } from "./getTokenValuation.js";

/** How the tokens query orders: the GraphQL enum's values. */
export type TokenOrder = "VOLUME_24H" | "LIQUIDITY";

/** Arguments of the tokens query (null where GraphQL passes an explicit null). */
export interface TokensArgs {
  network: NetworkName;
  orderBy?: TokenOrder | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}

/** A token with the network it belongs to: what the Token type's market fields resolve from. */
export type TokenSource = Token & { network: NetworkName };

/** A Relay-style page of tokens. */
export interface TokenPage {
  edges: { cursor: string; node: TokenSource }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Largest page: the stats of a page are computed per token. */
export const MAX_TOKENS_PAGE = 100;
const CURSOR = /^(VOLUME_24H|LIQUIDITY):(-1|\d{1,90}):(0x[0-9a-f]{40})$/;

interface Keyed {
  token: Token;
  /** The order's value; -1 for a token without one (no USD price), so it sorts last. */
  key: bigint;
}

function encodeCursor(order: TokenOrder, item: Keyed): string {
  return Buffer.from(`${order}:${item.key}:${item.token.address}`).toString("base64url");
}

function decodeCursor(order: TokenOrder, cursor: string): { key: bigint; address: string } {
  const match =
    cursor.length <= 200 ? CURSOR.exec(Buffer.from(cursor, "base64url").toString("latin1")) : null;
  if (match === null || match[1] !== order) {
    throw new BadRequestError(
      "after is not a valid cursor: pass an endCursor or edge cursor of tokens with the same orderBy.",
    );
  }
  return { key: BigInt(match[2]!), address: match[3]! };
}

// Descending by the key, then ascending by address: a total order, so keyset pages never repeat.
function before(a: Keyed, b: { key: bigint; address: string }): boolean {
  return a.key !== b.key ? a.key > b.key : a.token.address < b.address;
}

/**
 * One page of the network's known tokens (token list and discovered ERC-20s; the native coin is
 * its wrapped token), ordered by 24-hour USD volume or by USD liquidity, highest first, then by
 * address; `after` continues after a cursor's (value, address). Liquidity is computed in memory;
 * volume reads each known token's hourly candles once (batched per request, reused by the
 * page's fields). Throws 400 for bad arguments, 503 when the network is not ready.
 */
export async function listTokens(args: TokensArgs, ctx: GraphqlContext): Promise<TokenPage> {
  const { reader } = ctx;
  const { network } = args;
  assertNetworkConfigured(reader, network);
  const order = args.orderBy ?? "VOLUME_24H";
  const first = args.first ?? 20;
  if (!Number.isInteger(first) || first < 1 || first > MAX_TOKENS_PAGE) {
    throw new BadRequestError(`first must be between 1 and ${MAX_TOKENS_PAGE}.`);
  }
  const after = args.after === undefined || args.after === null ? undefined : decodeCursor(order, args.after);
  assertNetworkReady(reader, network, ctx.nowMs);

  const tokens = reader.listKnownTokens(network);
  let keyed: Keyed[];
  if (order === "LIQUIDITY") {
    keyed = tokens.map((token) => ({
      token,
      key: getTokenValuation(reader, network, token.address).liquidityUsd ?? -1n,
    }));
  } else {
    const stats = await ctx.tokenDayStats(network).loadMany(tokens.map((token) => token.address as Address));
    keyed = tokens.map((token, i) => {
      const value = stats[i];
      if (value instanceof Error) throw value;
      return { token, key: value?.volumeUsd ?? 0n };
    });
  }
  keyed.sort((a, b) => (before(a, { key: b.key, address: b.token.address }) ? -1 : 1));
  const start =
    after === undefined ? 0 : keyed.findIndex((item) => !before(item, after) && !same(item, after));
  const rest = start < 0 ? [] : keyed.slice(start);
  const page = rest.slice(0, first);
  const edges = page.map((item) => ({ cursor: encodeCursor(order, item), node: { ...item.token, network } }));
  return {
    edges,
    pageInfo: { hasNextPage: rest.length > first, endCursor: edges.at(-1)?.cursor ?? null },
  };
}

function same(item: Keyed, position: { key: bigint; address: string }): boolean {
  return item.key === position.key && item.token.address === position.address;
}
