import { expect } from "vitest";
import type { GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { gql } from "./support.js";

/** A Relay-style page as the tests read it. */
export interface ConnectionPage<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** One page of the connection field `field` of `query`, which must answer without errors. */
export async function readPage<T>(
  yoga: GraphqlServer,
  query: string,
  field: string,
  variables: Record<string, unknown>,
): Promise<ConnectionPage<T>> {
  const { status, body } = await gql(yoga, query, variables);
  expect(body.errors).toBeUndefined();
  expect(status).toBe(200);
  return body.data?.[field] as ConnectionPage<T>;
}

/** Every page, `first` at a time, following endCursor (which must be the last edge's cursor). */
export async function readAllPages<T>(
  yoga: GraphqlServer,
  query: string,
  field: string,
  variables: Record<string, unknown>,
  first: number,
): Promise<T[]> {
  const out: T[] = [];
  let after: string | null = null;
  for (let i = 0; i < 100; i++) {
    const next: ConnectionPage<T> = await readPage<T>(yoga, query, field, { ...variables, first, after });
    out.push(...next.edges.map((edge) => edge.node));
    if (!next.pageInfo.hasNextPage) return out;
    expect(next.pageInfo.endCursor).toBe(next.edges.at(-1)?.cursor);
    after = next.pageInfo.endCursor;
  }
  throw new Error(`${field} did not end within 100 pages`);
}
