import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import { MAX_EVENT_BLOCKS } from "../../views/answers/readDexScreener.js";
import type { MarketReader } from "../../views/types.js";
import { NETWORK_PATH_SCHEMA } from "../api/restSchemas.js";
import { createBlockAnswerer } from "../createBlockAnswerer.js";
import { LIST_BUDGET_ROUTE } from "../createListBudget.js";
import { refuseOtherMethods } from "../routeConfig.js";
import type { RouteDoc } from "../routeDoc.js";
import {
  assetHandler,
  type DexScreenerDeps,
  eventsHandler,
  latestBlockHandler,
  pairHandler,
} from "./createDexScreenerRoutes.js";
import {
  ASSET_RESPONSE_SCHEMA,
  EVENTS_QUERY_SCHEMA,
  EVENTS_RESPONSE_SCHEMA,
  ID_QUERY_SCHEMA,
  LATEST_BLOCK_RESPONSE_SCHEMA,
  NO_QUERY_SCHEMA,
  PAIR_RESPONSE_SCHEMA,
  SPEC_EXAMPLES,
} from "./dexScreenerSchemas.js";

/** The description of an adapter route: the spec's answer `schema` and its `example`. */
function adapterDoc(
  doc: Pick<RouteDoc, "operationId" | "summary" | "description" | "errors">,
  schema: object,
  example: unknown,
): RouteDoc {
  const ok = { description: "The answer, in the spec's format.", schema, example };
  return {
    ...doc,
    tag: "DEX Screener adapter",
    summary: `DEX Screener adapter: ${doc.summary}`,
    ok,
    kept: true,
  };
}

/** Options of dexScreenerPlugin. */
export interface DexScreenerOptions {
  reader: MarketReader;
  /** Where answers are kept per indexed block (absent: none is). */
  answers?: AnswerStore;
  /** How long a streamed events answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  logger?: Logger;
}

/**
 * The DEX Screener adapter (the published "DEX Screener Adapter Specs"), per network under
 * /dexscreener/{network}/: latest-block, asset, pair and events. It answers from the views the
 * API reads (the indexed block, the pool graph, the stored pool events): its format is the
 * aggregator's, not one GraphQL serves. Rate limited and kept per indexed block like /api/*.
 */
export async function dexScreenerPlugin(app: FastifyInstance, options: DexScreenerOptions): Promise<void> {
  const deps: DexScreenerDeps = {
    reader: options.reader,
    answer: createBlockAnswerer({
      reader: options.reader,
      ...(options.answers === undefined ? {} : { answers: options.answers }),
    }),
    answers: options.answers,
    stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
    logger: options.logger,
  };
  const routes = [
    {
      path: "/dexscreener/:network/latest-block",
      querystring: NO_QUERY_SCHEMA,
      handler: latestBlockHandler(deps),
      doc: adapterDoc(
        {
          operationId: "dexScreenerLatestBlock",
          summary: "the latest block whose events are all served",
          description:
            "The network's indexed block (number and unix seconds): every event of every block up to it is " +
            "stored and served by events, in the same commit; a block above it is never announced.",
        },
        LATEST_BLOCK_RESPONSE_SCHEMA,
        SPEC_EXAMPLES.latestBlock,
      ),
    },
    {
      path: "/dexscreener/:network/asset",
      querystring: ID_QUERY_SCHEMA,
      handler: assetHandler(deps),
      doc: adapterDoc(
        {
          operationId: "dexScreenerAsset",
          summary: "a token of an indexed pool",
          description:
            "The token's checksummed address, name and symbol as the token list or its contract gives them, and " +
            "its totalSupply() at the indexed block, decimalized (left out when the token or the RPC does not " +
            "answer). circulatingSupply is left out: no chain figure states it.",
          errors: {
            "404": {
              description: "No indexed pool holds this token.",
              example: "No indexed pool on bsc holds asset 0x55d398326f99059ff775485246999027b3197955.",
            },
          },
        },
        ASSET_RESPONSE_SCHEMA,
        SPEC_EXAMPLES.asset,
      ),
    },
    {
      path: "/dexscreener/:network/pair",
      querystring: ID_QUERY_SCHEMA,
      handler: pairHandler(deps),
      doc: adapterDoc(
        {
          operationId: "dexScreenerPair",
          summary: "an indexed pool",
          description:
            "The pool's checksummed address, its DEX's name as dexKey, token0 and token1 as asset0Id and " +
            "asset1Id (the pool's own order, which never changes) and its swap fee in bps (a V3 pool's fee " +
            "tier / 100), and createdAtBlockNumber, createdAtBlockTimestamp and createdAtTxnId from the " +
            "factory's log that created the pool (left out when none was found).",
          errors: {
            "404": {
              description: "The address is not an indexed pool.",
              example: "Pair 0x16b9a82891338f9ba80e2d6970fdda79d1eb0dae is not an indexed pool on bsc.",
            },
          },
        },
        PAIR_RESPONSE_SCHEMA,
        SPEC_EXAMPLES.pair,
      ),
    },
    {
      path: "/dexscreener/:network/events",
      querystring: EVENTS_QUERY_SCHEMA,
      handler: eventsHandler(deps),
      // A block range of events is a list, streamed: charged to the client's list budget.
      list: true,
      doc: adapterDoc(
        {
          operationId: "dexScreenerEvents",
          summary: "swaps, joins and exits of a block range",
          description:
            "Every Swap (swap), Mint (join) and Burn (exit) log of the indexed pools in fromBlock..toBlock " +
            "(inclusive), in chain order, with the transaction's signer as maker. Amounts and reserves are " +
            "decimalized exactly (strings); priceNative is the asset1 paid or taken per asset0 in the swap, " +
            "to 50 decimal places. reserves are the pool's token amounts right after the event: a V2 pair's " +
            "Sync, a V3 pool's token balances kept from its logs. toBlock may not pass latest-block, " +
            `and a range holds at most ${MAX_EVENT_BLOCKS} blocks. Answers of more than 1,000 events are streamed.`,
        },
        EVENTS_RESPONSE_SCHEMA,
        SPEC_EXAMPLES.events,
      ),
    },
  ];
  for (const route of routes) {
    app.get(
      route.path,
      // Kept answers carry their own gzip; streamed events are gzipped by the framework.
      {
        schema: { params: NETWORK_PATH_SCHEMA, querystring: route.querystring },
        config: { openapi: route.doc, ...("list" in route ? LIST_BUDGET_ROUTE : {}) },
      },
      route.handler,
    );
    refuseOtherMethods(app, route.path);
  }
}
