import type { FastifyReply, FastifyRequest } from "fastify";
import type { NetworkName } from "../../domain/types.js";
import { readQuote } from "../../views/answers/readQuote.js";
import type { MarketReader } from "../../views/types.js";
import type { BlockAnswerer } from "../createBlockAnswerer.js";
import type { RestRoute } from "./restRoute.js";

/**
 * The cache key of a token parameter. Symbols resolve case-insensitively and addresses are
 * lowercased, so case does not change a successful answer, with one exception: "0X" + 40 hex
 * is a 400 while "0x" + 40 hex is an address; such input (and non-ASCII, whose lowercase may
 * differ in length) keeps its case, so a request never shares an answer it would not get.
 */
function tokenKey(value: string): string {
  return /^[\x21-\x7e]+$/.test(value) && !value.startsWith("0X") ? value.toLowerCase() : value;
}

interface QuoteQuery {
  network: NetworkName;
  sellToken: string;
  buyToken: string;
}

/** GET /api/quote: the price of one sell token in the buy token, kept per indexed block. */
export function createQuoteRoute(options: { reader: MarketReader; answer: BlockAnswerer }): RestRoute {
  const { reader, answer } = options;
  function render(
    request: FastifyRequest,
    reply: FastifyReply,
    query: QuoteQuery,
    key: string,
    nowMs: number,
  ) {
    const variables = { network: query.network, sellToken: query.sellToken, buyToken: query.buyToken };
    return answer.answer(request, reply, {
      network: variables.network,
      key,
      nowMs,
      render: () => readQuote(reader, { ...variables, nowMs }),
    });
  }
  // A quote is a function of the network's pools, so of its indexed block. A kept one is sent
  // synchronously (no promise, no closure per request); only a miss renders.
  const handler: RestRoute["handler"] = (request, reply) => {
    const query = request.query as QuoteQuery;
    const key = `quote\n${query.network}\n${tokenKey(query.sellToken)}\n${tokenKey(query.buyToken)}`;
    const nowMs = Date.now();
    if (answer.sendKept(request, reply, query.network, key, nowMs)) return undefined;
    return render(request, reply, query, key, nowMs);
  };
  return { path: "/api/quote", operationId: "getQuote", ownCompression: true, handler };
}
