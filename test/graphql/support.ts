import { type Logger, pino } from "pino";
import type { GraphqlServer } from "../../src/graphql/createGraphqlServer.js";

/** A GraphQL response as the tests read it. */
export interface GqlResponse {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: {
      message: string;
      path?: string[];
      extensions?: { code?: string; http?: { status?: number } };
    }[];
  };
}

/** Posts a query to yoga in-process (yoga.fetch: no port). */
export async function gql(
  yoga: GraphqlServer,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GqlResponse> {
  const response = await yoga.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as GqlResponse["body"] };
}

/** A real pino logger that keeps its records in memory, to assert on what was logged. */
export function createMemoryLogger(level = "debug"): { logger: Logger; records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  const logger = pino(
    { level },
    {
      write(line: string) {
        records.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, records };
}
