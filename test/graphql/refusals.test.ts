import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_QUOTED_CHARS } from "../../src/graphql/errors/quietMessage.js";
import { GRAPHQL_LIMITS } from "../../src/graphql/graphqlLimits.js";
import { startServer, type TestServer } from "../http/support.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";

// Refusals of the GraphQL endpoint over a real socket, as the GraphQL-over-HTTP spec wants them:
// a limit (aliases, depth, cost) or an unknown persisted id is a 4xx with extensions.code, under
// both media types; no suggestion names the schema; no input comes back twice.

let fixture: Fixture;
let server: TestServer;

beforeAll(async () => {
  fixture = await createFixtureReader({ bulkTrades: 100 });
  server = await startServer(fixture.reader, { listen: true });
});

afterAll(async () => {
  await server?.close();
  await fixture?.close();
});

const MEDIA_TYPES = ["application/graphql-response+json", "application/json"] as const;

interface Refusal {
  status: number;
  contentType: string;
  bytes: number;
  errors: { message: string; extensions?: { code?: string } }[];
}

async function post(body: unknown, accept: string): Promise<Refusal> {
  const response = await fetch(`${server.baseUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    bytes: Buffer.byteLength(text),
    errors: (JSON.parse(text) as { errors?: Refusal["errors"] }).errors ?? [],
  };
}

const aliased = (count: number, field: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(" ")} }`;
// `__type` is not `__schema`, so the depth limit counts it (armor skips only __schema).
const deep = (levels: number) =>
  `{ __type(name: "Query") { fields { type ${"{ ofType ".repeat(levels)}{ name }${" }".repeat(levels)} } } }`;
const PAGE =
  "swaps(first: 1000) { edges { cursor node { txHash blockNumber timestamp sender volumeUSD tracked pools sell { token { address name symbol decimals } amount amountDecimal } buy { token { address name symbol decimals } amount amountDecimal } } } }";

describe("GraphQL refusals", () => {
  for (const accept of MEDIA_TYPES) {
    test(`error: alias, depth and cost limits and an unknown persisted id are 400 with their code (${accept})`, async () => {
      const cases = [
        { body: { query: aliased(GRAPHQL_LIMITS.maxAliases + 1, "networks { name }") }, code: "ALIAS_LIMIT" },
        { body: { query: deep(GRAPHQL_LIMITS.maxDepth) }, code: "DEPTH_LIMIT" },
        { body: { query: `{ a: ${PAGE} b: ${PAGE} }` }, code: "COST_LIMIT" },
        {
          body: { extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } } },
          code: "PERSISTED_QUERY_NOT_IN_LIST",
        },
      ];
      for (const { body, code } of cases) {
        const answer = await post(body, accept);
        expect({ code, status: answer.status, codes: answer.errors.map((e) => e.extensions?.code) }).toEqual({
          code,
          status: 400,
          codes: [code],
        });
        expect(answer.contentType).toContain(accept);
      }
    });
  }

  test("error: aliases of __typename count toward the alias limit", async () => {
    const answer = await post({ query: aliased(600, "__typename") }, MEDIA_TYPES[0]);
    expect(answer.status).toBe(400);
    expect(answer.errors[0]?.extensions?.code).toBe("ALIAS_LIMIT");
    expect(answer.errors[0]?.message).toMatch(/Aliases limit of 15 exceeded, found 600/);
    // Within the limit they are answered.
    expect(
      (await post({ query: aliased(GRAPHQL_LIMITS.maxAliases, "__typename") }, MEDIA_TYPES[0])).status,
    ).toBe(200);
  });

  test("error: no suggestion in field, argument or enum errors, literal or variable", async () => {
    const answers = await Promise.all([
      post({ query: "{ swapz { edges { cursor } } }" }, MEDIA_TYPES[0]),
      post({ query: "{ swaps(frist: 1) { edges { cursor } } }" }, MEDIA_TYPES[0]),
      post({ query: "{ swaps(network: et) { edges { cursor } } }" }, MEDIA_TYPES[0]),
      post({ query: "{ swaps(network: et) { edges { cursor } } }" }, MEDIA_TYPES[1]),
      post(
        {
          query: "query Q($n: Network!) { swaps(network: $n) { edges { cursor } } }",
          variables: { n: "et" },
        },
        MEDIA_TYPES[1],
      ),
    ]);
    for (const answer of answers) {
      expect(answer.errors.length).toBeGreaterThan(0);
      for (const error of answer.errors) expect(error.message).not.toMatch(/did you mean/i);
    }
    expect(answers[2]!.status).toBe(400);
    expect(answers[2]!.errors[0]!.message).toBe(
      'Value "et" does not exist in "Network" enum. [Suggestion hidden]',
    );
    expect(answers[4]!.status).toBe(400);
  });

  test("error: an invalid enum variable of 90 KB is refused in under 1 KB, quoted once and cut", async () => {
    const value = "x".repeat(90_000);
    const answer = await post(
      { query: "query Q($n: Network!) { swaps(network: $n) { edges { cursor } } }", variables: { n: value } },
      MEDIA_TYPES[0],
    );
    expect(answer.status).toBe(400);
    expect(answer.bytes).toBeLessThan(1_000);
    expect(answer.errors[0]!.message).toContain(`"${"x".repeat(MAX_QUOTED_CHARS)}..."`);
  });
});
