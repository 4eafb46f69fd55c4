import type { NetworkName, Token } from "../../domain/types.js";
import { assertNetworkConfigured } from "../assertNetworkReady.js";
import { getQuote } from "../getQuote.js";
import { quoteOrNoRouteError } from "../quoteOrNoRouteError.js";
import type { MarketReader } from "../types.js";
import { type AnswerFreshness, answerFreshness } from "./answerFreshness.js";

// Field order is the spec's table order.
function tokenBody(token: Token) {
  return { name: token.name, symbol: token.symbol, decimals: String(token.decimals), address: token.address };
}

/**
 * GET /api/quote's answer: the price of one sell token in the buy token (symbols or addresses,
 * getQuote) at the indexed block, and the freshness it was made at. 400 for a token that is not
 * one, 422 when no route connects them, 503 when the network does not serve.
 */
export async function readQuote(
  reader: MarketReader,
  args: { network: NetworkName; sellToken: string; buyToken: string; nowMs: number },
): Promise<{ value: unknown; networkStatus: AnswerFreshness }> {
  const { network, nowMs } = args;
  assertNetworkConfigured(reader, network);
  const networkStatus = answerFreshness(reader, network, nowMs);
  const quote = quoteOrNoRouteError(
    await getQuote(reader, { network, sellToken: args.sellToken, buyToken: args.buyToken }),
  );
  const value = {
    result: {
      network: quote.network,
      sell_token: tokenBody(quote.sellToken),
      buy_token: tokenBody(quote.buyToken),
      price: quote.price,
    },
  };
  return { value, networkStatus };
}
