import { NoRouteError } from "../errors.js";
import type { NoRoute, QuoteResult } from "./getQuote.js";

/**
 * The GraphQL answer of a quote's outcome: the quote, or, for no route, the 422 NoRouteError
 * (GraphQL says an expected "no answer" as an error; the error formatter words it on the wire).
 */
export function quoteOrNoRouteError(outcome: QuoteResult | NoRoute): QuoteResult {
  if (outcome.kind === "quote") return outcome;
  // A token whose symbol could not be read (or was empty) is named by its address.
  throw new NoRouteError({
    sellSymbol: outcome.sellToken.symbol || outcome.sellToken.address,
    buySymbol: outcome.buyToken.symbol || outcome.buyToken.address,
    network: outcome.network,
  });
}
