// The dashboard's reads: GraphQL over POST /graphql, the swap feed over SSE (GET /graphql with
// an EventSource, graphql-yoga's distinct connections mode) and the REST quote.

/** Tracked volume of one UTC day, as Query.dailyVolumes answers it. */
export interface DailyVolume {
  date: string;
  volumeUSD: string;
  addressCount: number;
  tradeCount: number;
}

/** One OHLCV bucket, as Query.candles answers it (prices null when no swap was priced). */
export interface Candle {
  start: number;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string | null;
  volume: string;
  quoteVolume: string;
  tradeCount: number;
}

/** A token of the network's list, as Query.tokens answers it. */
export interface TokenInfo {
  symbol: string;
  address: string;
  priceUSD: string | null;
  volumeUSD24h: string;
}

/** A pool of the network, as Query.pools answers it. */
export interface PoolInfo {
  address: string;
  dex: string;
  feeBps: number;
  liquidityUSD: string | null;
  volumeUSD24h: string | null;
  tradeCount24h: number;
  reserve0: { token: { symbol: string } };
  reserve1: { token: { symbol: string } };
}

/** A swap of the live feed. */
export interface FeedSwap {
  txHash: string;
  logIndex: number;
  blockNumber: string;
  timestamp: number;
  sender: string;
  sell: { amountDecimal: string; token: { symbol: string } };
  buy: { amountDecimal: string; token: { symbol: string } };
  volumeUSD: string;
}

/** One event of Subscription.swaps. */
export interface FeedEvent {
  type: "ADDED" | "REMOVED";
  network: string;
  blockNumber: string;
  swaps: FeedSwap[];
}

/** A network's indexing status, as Query.status answers it. */
export interface NetworkStatus {
  network: string;
  ready: boolean;
  serving: boolean;
  indexedBlock: string | null;
}

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: { message: string }[];
}

/** Runs one GraphQL query; a GraphQL error becomes a thrown Error with its message. */
export async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await response.json()) as GraphqlAnswer<T>;
  if (answer.errors !== undefined && answer.errors.length > 0) {
    throw new Error(answer.errors.map((error) => error.message).join("; "));
  }
  if (answer.data == null) throw new Error(`GraphQL answered ${response.status} without data`);
  return answer.data;
}

export const STATUS_QUERY = /* GraphQL */ `
  { status { network ready serving indexedBlock } }
`;

export const OVERVIEW_QUERY = /* GraphQL */ `
  query Overview($network: Network!) {
    networkStatus(network: $network) { indexedBlock }
    dailyVolumes(network: $network, days: 7) { date volumeUSD addressCount tradeCount }
    tokens(network: $network, first: 20) { edges { node { symbol address priceUSD volumeUSD24h } } }
    pools(network: $network, orderBy: LIQUIDITY, first: 10) {
      edges { node {
        address dex feeBps liquidityUSD volumeUSD24h tradeCount24h
        reserve0 { token { symbol } } reserve1 { token { symbol } }
      } }
    }
  }
`;

export const CANDLES_QUERY = /* GraphQL */ `
  query Candles($network: Network!, $token: String!, $interval: CandleInterval!) {
    candles(network: $network, token: $token, interval: $interval, first: 168) {
      start open high low close volume quoteVolume tradeCount
    }
  }
`;

export const FEED_SUBSCRIPTION = /* GraphQL */ `
  subscription Feed($network: Network!, $afterBlock: BigInt) {
    swaps(network: $network, afterBlock: $afterBlock) {
      type network blockNumber
      swaps {
        txHash logIndex blockNumber timestamp sender volumeUSD
        sell { amountDecimal(digits: 6) token { symbol } }
        buy { amountDecimal(digits: 6) token { symbol } }
      }
    }
  }
`;

/** The URL an EventSource opens for a subscription (GraphQL over SSE with GET). */
export function subscriptionUrl(query: string, variables: Record<string, unknown>): string {
  return `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`;
}

/** What GET /api/quote answered: its `result`, or its `error` message. */
export interface QuoteAnswer {
  status: number;
  result?: {
    network: string;
    price: string;
    sell_token: { symbol: string; address: string };
    buy_token: { symbol: string; address: string };
  };
  error?: string;
}

/** What Query.quote answers for an exact sell amount (smallest units). */
export interface AmountQuote {
  sellToken: { symbol: string; decimals: number };
  buyToken: { symbol: string; decimals: number };
  sellAmount: string;
  buyAmount: string;
  priceImpact: string;
  route: { pools: { dex: string }[] };
}

export const TOKEN_DECIMALS_QUERY = /* GraphQL */ `
  query Decimals($network: Network!, $token: String!) {
    token(network: $network, symbolOrAddress: $token) { decimals }
  }
`;

export const AMOUNT_QUOTE_QUERY = /* GraphQL */ `
  query AmountQuote($network: Network!, $sell: String!, $buy: String!, $amount: BigInt!) {
    quote(network: $network, sellToken: $sell, buyToken: $buy, sellAmount: $amount) {
      sellToken { symbol decimals } buyToken { symbol decimals }
      sellAmount buyAmount priceImpact route { pools { dex } }
    }
  }
`;

/** Calls the REST quote (price of one whole sell token in the buy token). */
export async function fetchQuote(network: string, sellToken: string, buyToken: string): Promise<QuoteAnswer> {
  const query = new URLSearchParams({ network, sellToken, buyToken });
  const response = await fetch(`/api/quote?${query}`);
  const body = (await response.json()) as Omit<QuoteAnswer, "status">;
  return { status: response.status, ...body };
}
