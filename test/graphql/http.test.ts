import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GRAPHQL_LIMITS } from "../../src/graphql/graphqlLimits.js";
import { startServer, type TestServer } from "../http/support.js";
import { chromiumAvailable, launchBrowser } from "../support/browser.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";

let fixture: Fixture;
let server: TestServer;

beforeAll(async () => {
  fixture = await createFixtureReader();
  // Bodies with and without Content-Length, and a browser: a real socket.
  server = await startServer(fixture.reader, { listen: true });
});

afterAll(async () => {
  await server?.close();
  await fixture?.close();
});

// A POST whose body is sent chunked (no Content-Length), `size` bytes of valid JSON.
function postChunked(size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.baseUrl}/graphql`,
      {
        method: "POST",
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    const head = '{"query":"{ status { network } }","variables":{"pad":"';
    req.write(head);
    const filler = "x".repeat(1_000);
    for (let sent = head.length; sent < size - 3; sent += filler.length) req.write(filler);
    req.end('"}}');
  });
}

describe("request body limit", () => {
  const post = (body: string) =>
    server.call("/graphql", { method: "POST", headers: { "content-type": "application/json" }, body });

  test("behavior: a body within the limit is answered, with or without Content-Length", async () => {
    const small = await post(JSON.stringify({ query: "{ status { network } }" }));
    expect(small.status).toBe(200);
    expect(small.body).toEqual({ data: { status: [{ network: "bsc" }, { network: "eth" }] } });
    expect(await postChunked(5_000)).toBe(200);
  });

  test("error: a body over the limit is 413, declared or chunked", async () => {
    const big = JSON.stringify({
      query: "{ status { network } }",
      variables: { pad: "x".repeat(GRAPHQL_LIMITS.maxRequestBodySize) },
    });
    const declared = await post(big);
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ errors: [{ extensions: { code: "PAYLOAD_TOO_LARGE" } }] });
    expect(await postChunked(GRAPHQL_LIMITS.maxRequestBodySize + 10_000)).toBe(413);
  });
});

describe.skipIf(!chromiumAvailable)("GraphiQL", () => {
  test("behavior: the page names no external script, style or font", async () => {
    const page = await server.call("/graphql", { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).toContain("<title>swapgraph</title>");
    // The bundle holds URL strings that are never fetched (the SVG namespace, docs links); what
    // a browser would load is a src/href attribute, a CSS url() or @import, or an import().
    const loadable = page.text.match(
      /(?:\b(?:src|href)\s*=\s*["']?|url\(\s*["']?|@import\s+["']|import\(\s*["'])(?:https?:)?\/\/[^"')\s]+/gi,
    );
    const own = new URL(server.baseUrl).host;
    expect((loadable ?? []).filter((ref) => !ref.includes(own))).toEqual([]);
  });

  test("behavior: a browser with no network beyond the server shows the editor and loads the schema", async () => {
    const browser = await launchBrowser();
    try {
      const visit = await browser.visit(`${server.baseUrl}/graphql`);
      await visit.page.locator(".graphiql-container").first().waitFor({ state: "visible", timeout: 20_000 });
      await visit.page
        .locator(".graphiql-query-editor")
        .first()
        .waitFor({ state: "visible", timeout: 20_000 });
      expect(await visit.page.title()).toBe("swapgraph");
      expect(visit.external).toEqual([]);
      expect(visit.failed).toEqual([]);
      expect(visit.errors).toEqual([]);
      // GraphiQL asked the server for the schema (introspection) on its own origin.
      expect(visit.requests.some((url) => url === `${server.baseUrl}/graphql`)).toBe(true);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
