import type { Address, NetworkName, Token } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import { assertNetworkConfigured, assertNetworkReady } from "../../views/assertNetworkReady.js";
import { loadAllDayTotals } from "../context/createDayStatsLoaders.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { getTokenValuation } from "./getTokenValuation.js";
import { decodeRankCursor, type Ranked, type RankedPage, rankedPage } from "./rankedPage.js";

/** How the tokens query orders: the GraphQL enum's values. */
type TokenOrder = "VOLUME_24H" | "LIQUIDITY";

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
export type TokenPage = RankedPage<TokenSource>;

/** Largest page: the stats of a page are computed per token. */
const MAX_TOKENS_PAGE = 100;

/**
 * One page of the network's known tokens (token list and discovered ERC-20s; the native coin is
 * its wrapped token), ordered by 24-hour USD volume or by USD liquidity, highest first, then by
 * address; `after` continues after a cursor's (value, address). Liquidity is computed in memory;
 * volume is one batched store read of the known tokens' hourly candles (reused by the page's
 * fields). Throws 400 for bad arguments, 503 when the network is not ready.
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
  const after =
    args.after === undefined || args.after === null
      ? undefined
      : decodeRankCursor("tokens", order, args.after);
  assertNetworkReady(reader, network, ctx.nowMs);

  const tokens = reader.listKnownTokens(network);
  const rank = (token: Token, key: bigint): Ranked<TokenSource> => ({
    node: { ...token, network },
    key,
    address: token.address,
  });
  let ranked: Ranked<TokenSource>[];
  if (order === "LIQUIDITY") {
    ranked = tokens.map((token) =>
      rank(token, getTokenValuation(reader, network, token.address).liquidityUsd ?? -1n),
    );
  } else {
    const totals = await loadAllDayTotals(reader, network, "token", ctx.now);
    ranked = tokens.map((token) => rank(token, totals.get(token.address as Address)?.quoteVolume ?? 0n));
  }
  return rankedPage(ranked, order, first, after);
}
