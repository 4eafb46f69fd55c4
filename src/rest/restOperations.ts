import { type DocumentNode, type GraphQLSchema, parse, validate } from "graphql";

/** The fixed GraphQL operation behind GET /api/quote. */
export const QUOTE_OPERATION = /* GraphQL */ `
  query RestQuote($network: Network!, $sellToken: String!, $buyToken: String!) {
    quote(network: $network, sellToken: $sellToken, buyToken: $buyToken) {
      network
      sellToken { name symbol decimals address }
      buyToken { name symbol decimals address }
      price
    }
  }
`;

/** The fixed GraphQL operation behind GET /api/swaps_24h, executed page by page. */
export const SWAPS_OPERATION = /* GraphQL */ `
  query RestSwaps($network: Network!, $from: Timestamp!, $after: String) {
    swaps(network: $network, from: $from, first: 1000, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          txHash
          blockNumber
          sell { token { name symbol decimals address } amount amountDecimal(digits: 8) }
          buy { token { name symbol decimals address } amount amountDecimal(digits: 8) }
          volumeUSD
        }
      }
    }
  }
`;

/** The fixed GraphQL operation behind GET /api/trade_volume_usd_7d. */
export const DAILY_VOLUMES_OPERATION = /* GraphQL */ `
  query RestDailyVolumes($network: Network!) {
    dailyVolumes(network: $network, days: 7) { date addressCount volumeUSD }
  }
`;

/** The REST operations, parsed and validated once. */
export interface RestOperations {
  quote: DocumentNode;
  swaps: DocumentNode;
  dailyVolumes: DocumentNode;
}

function parseValid(schema: GraphQLSchema, source: string): DocumentNode {
  const document = parse(source);
  const errors = validate(schema, document);
  // execute() does not validate: a document that drifted from the schema must fail at start.
  if (errors.length > 0) throw new Error(`A REST operation does not match the schema: ${errors[0]!.message}`);
  return document;
}

/** Parses and validates the fixed REST operations against the schema (call once at start). */
export function parseRestOperations(schema: GraphQLSchema): RestOperations {
  return {
    quote: parseValid(schema, QUOTE_OPERATION),
    swaps: parseValid(schema, SWAPS_OPERATION),
    dailyVolumes: parseValid(schema, DAILY_VOLUMES_OPERATION),
  };
}
