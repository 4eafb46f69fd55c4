import { type DocumentNode, execute, type GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import type { MarketReader } from "../domain/market.js";
import { createGraphqlContext, type GraphqlContext } from "../graphql/createGraphqlContext.js";
import { findSwapgraphError } from "../graphql/findSwapgraphError.js";
import { createMicroCache } from "./createMicroCache.js";
import { readNetwork, readTokenParam } from "./readQueryParams.js";
import { parseRestOperations } from "./restOperations.js";

/** A REST handler: query parameters in, the success body as UTF-8 JSON bytes out; throws on error. */
export type RestHandler = (params: URLSearchParams) => Promise<Buffer>;

/** Options of createRestHandlers. */
export interface RestHandlersOptions {
  reader: MarketReader;
  /** The schema the GraphQL server serves: the REST facade executes against the same one. */
  schema: GraphQLSchema;
  logger?: Logger;
  /**
   * How long the two list answers are shared, in ms (default 1000: one wall-clock second).
   * Their window moves by the second anyway; 0 turns sharing off.
   */
  listCacheMs?: number;
}

interface TokenFields {
  name: string;
  symbol: string;
  decimals: number;
  address: string;
}

interface AmountFields {
  token: TokenFields;
  amount: string;
  amountDecimal: string;
}

interface QuoteData {
  quote: { network: string; sellToken: TokenFields; buyToken: TokenFields; price: string };
}

interface SwapsData {
  swaps: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: {
      node: { txHash: string; blockNumber: string; sell: AmountFields; buy: AmountFields; volumeUSD: string };
    }[];
  };
}

interface DailyVolumesData {
  dailyVolumes: { date: string; addressCount: number; volumeUSD: string }[];
}

const DAY = 86_400;

// Bytes, not text: a shared (cached) answer is then written without encoding it again.
function toJson(body: unknown): Buffer {
  return Buffer.from(JSON.stringify(body));
}

// Field order is the spec's table order.
function tokenBody(token: TokenFields) {
  return { name: token.name, symbol: token.symbol, decimals: String(token.decimals), address: token.address };
}

function amountBody(side: AmountFields) {
  return { ...tokenBody(side.token), amount: side.amount, amount_decimal: side.amountDecimal };
}

/**
 * Creates the three REST handlers, keyed by path. Each runs one fixed GraphQL operation,
 * parsed once, with graphql's execute() in-process (no HTTP hop), and renames the result to
 * the public API's JSON.
 */
export function createRestHandlers(options: RestHandlersOptions): ReadonlyMap<string, RestHandler> {
  const { reader, schema, logger } = options;
  const operations = parseRestOperations(schema);

  const listCacheMs = options.listCacheMs ?? 1000;
  // A list answer is about a megabyte of JSON built from thousands of swaps: requests within
  // the same second share one computation instead of repeating it (at most 1 s stale).
  const listCache = createMicroCache<Buffer>(Math.max(listCacheMs, 1));
  const shared = (key: string, compute: (nowMs: number) => Promise<Buffer>) =>
    listCacheMs > 0 ? listCache(key, compute) : compute(Date.now());

  function newContext(nowMs = Date.now()): GraphqlContext {
    const now = Math.floor(nowMs / 1000);
    return createGraphqlContext(reader, logger === undefined ? { now } : { logger, now });
  }

  async function run<T>(
    document: DocumentNode,
    variables: Record<string, unknown>,
    context: GraphqlContext,
  ): Promise<T> {
    const result = await execute({ schema, document, variableValues: variables, contextValue: context });
    const first = result.errors?.[0];
    // The GraphQL error wraps the resolver's error: the REST error handler wants the cause.
    if (first !== undefined) throw findSwapgraphError(first) ?? first;
    return result.data as T;
  }

  const quote: RestHandler = async (params) => {
    const variables = {
      network: readNetwork(params),
      sellToken: readTokenParam(params, "sellToken"),
      buyToken: readTokenParam(params, "buyToken"),
    };
    const data = await run<QuoteData>(operations.quote, variables, newContext());
    const { network, sellToken, buyToken, price } = data.quote;
    return toJson({
      result: { network, sell_token: tokenBody(sellToken), buy_token: tokenBody(buyToken), price },
    });
  };

  async function listSwaps24h(network: string, nowMs: number): Promise<Buffer> {
    const context = newContext(nowMs);
    // One window for every page: the pages share the request's clock and token cache.
    const from = context.now - DAY;
    const body: unknown[] = [];
    let after: string | null = null;
    for (;;) {
      const data: SwapsData = await run<SwapsData>(operations.swaps, { network, from, after }, context);
      for (const { node } of data.swaps.edges) {
        body.push({
          tx_hash: node.txHash,
          block_number: node.blockNumber,
          sell_token: amountBody(node.sell),
          buy_token: amountBody(node.buy),
          trade_volume_usd: node.volumeUSD,
        });
      }
      if (!data.swaps.pageInfo.hasNextPage) return toJson(body);
      after = data.swaps.pageInfo.endCursor;
    }
  }

  async function listDailyVolumes7d(network: string, nowMs: number): Promise<Buffer> {
    const data = await run<DailyVolumesData>(operations.dailyVolumes, { network }, newContext(nowMs));
    return toJson(
      data.dailyVolumes.map((day) => ({
        date: day.date,
        address_count: String(day.addressCount),
        trade_volume_usd: day.volumeUSD,
      })),
    );
  }

  const swaps24h: RestHandler = async (params) => {
    const network = readNetwork(params);
    return shared(`swaps:${network}`, (nowMs) => listSwaps24h(network, nowMs));
  };

  const tradeVolume7d: RestHandler = async (params) => {
    const network = readNetwork(params);
    return shared(`volumes:${network}`, (nowMs) => listDailyVolumes7d(network, nowMs));
  };

  return new Map([
    ["/api/quote", quote],
    ["/api/swaps_24h", swaps24h],
    ["/api/trade_volume_usd_7d", tradeVolume7d],
  ]);
}
