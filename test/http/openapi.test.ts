import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { fastify } from "fastify";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { parse as parseYaml } from "yaml";
import { NETWORKS } from "../../src/domain/types.js";
import { MAX_SWAPS_LIMIT } from "../../src/http/api/restLimits.js";
import { LISTING_ENDPOINTS } from "../../src/http/listings/createListingRoutes.js";
import {
  DEFAULT_BOOK_DEPTH,
  DEFAULT_BOOK_RANGE,
  MAX_BOOK_DEPTH,
} from "../../src/http/listings/createOrderBookRoutes.js";
import { MAX_TRADES_LIMIT } from "../../src/http/listings/createPoolTradeRoutes.js";
import { documentedRoute } from "../../src/http/openapi/documentedRoute.js";
import {
  inlineRefs,
  loadOpenApi,
  type OpenApiDocument,
  readOpenApiSource,
} from "../../src/http/openapi/loadOpenApi.js";
import { docsPlugin } from "../../src/http/plugins/docsPlugin.js";
import { MAX_EVENT_BLOCKS } from "../../src/views/answers/readDexScreener.js";
import type { MarketReader } from "../../src/views/types.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { startServer, type TestServer } from "./support.js";

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let fixture: Fixture;
let coldFixture: Fixture;
let api: TestServer;
let cold: TestServer;
let served: OpenApiDocument;

beforeAll(async () => {
  fixture = await createFixtureReader();
  api = await startServer(fixture.reader);
  // eth still backfilling: the 503 answers.
  coldFixture = await createFixtureReader({ notReady: ["eth"] });
  cold = await startServer(coldFixture.reader);
  served = (await api.call("/openapi.json")).body as OpenApiDocument;
});

afterAll(async () => {
  await api.close();
  await cold.close();
  await fixture.close();
  await coldFixture.close();
});

type Json = Record<string, unknown>;

/** The value a JSON pointer ("#/components/schemas/Swap") names in the document, or undefined. */
function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>(
      (node, key) =>
        typeof node === "object" && node !== null && Object.hasOwn(node, key)
          ? (node as Json)[key]
          : undefined,
      document,
    );
}

/** Every $ref of the document with where it is. */
function listRefs(node: unknown, at = "#"): { at: string; ref: string }[] {
  if (typeof node !== "object" || node === null) return [];
  const own = typeof (node as Json).$ref === "string" ? [{ at, ref: (node as Json).$ref as string }] : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => listRefs(value, `${at}/${key}`))];
}

/** `node` with every $ref replaced by what it points to (the document has no cycles). */
function inline(document: unknown, node: unknown): unknown {
  if (typeof node !== "object" || node === null) return node;
  if (Array.isArray(node)) return node.map((item) => inline(document, item));
  const { $ref, ...rest } = node as Json;
  const base = typeof $ref === "string" ? (inline(document, resolvePointer(document, $ref)) as Json) : {};
  return { ...base, ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inline(document, v)])) };
}

function newAjv(options: { coerceTypes?: boolean } = {}): Ajv2020 {
  // strict: an OpenAPI-only keyword slipping into a schema fails compilation here.
  return addFormats(new Ajv2020({ strict: true, allErrors: true, ...options }));
}

const ajv = newAjv();
const validators = new Map<string, ValidateFunction>();

/** The validator of the JSON body the document gives for `status` of GET `path` (or of a named response). */
function bodyValidator(document: OpenApiDocument, path: string, status: string): ValidateFunction {
  const key = `${path} ${status}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const response = (
      path.startsWith("#/")
        ? resolvePointer(document, path)
        : resolvePointer(document, `#/paths/${path.replaceAll("/", "~1")}/get/responses/${status}`)
    ) as Json | undefined;
    expect(response, `${key} is documented`).toBeDefined();
    const content = (inline(document, response) as { content?: Record<string, { schema?: unknown }> })
      .content;
    // The export's 200 is NDJSON: its schema is a line's.
    const media = content?.["application/json"] ?? content?.["application/x-ndjson"];
    expect(media?.schema, `${key} has an application/json (or NDJSON line) schema`).toBeDefined();
    validate = ajv.compile(media!.schema as object);
    validators.set(key, validate);
  }
  return validate;
}

function expectValid(validate: ValidateFunction, body: unknown, what: string): void {
  const valid = validate(body);
  expect(valid ? [] : validate.errors, `${what} matches its schema`).toEqual([]);
}

const API_PATHS = ["/api/quote", "/api/swaps_24h", "/api/trade_volume_usd_7d", "/api/swaps_export"];
const LISTING_PATHS = [
  ...LISTING_ENDPOINTS.map((endpoint) => endpoint.path.replace(/:([a-z_]+)/g, "{$1}")),
  "/coingecko/{network}/orderbook",
  "/cmc/{network}/orderbook/{market_pair}",
  "/coingecko/{network}/historical_trades",
  "/cmc/{network}/trades/{market_pair}",
];
const STREAMED_PATHS = [
  "/api/swaps_24h",
  "/api/swaps_export",
  "/coingecko/{network}/historical_trades",
  "/cmc/{network}/trades/{market_pair}",
];
const DEXSCREENER_PATHS = [
  "/dexscreener/{network}/latest-block",
  "/dexscreener/{network}/asset",
  "/dexscreener/{network}/pair",
  "/dexscreener/{network}/events",
];
const PATHS = [...API_PATHS, ...LISTING_PATHS, ...DEXSCREENER_PATHS];

describe("the OpenAPI document", () => {
  test("behavior: GET /openapi.json serves schema/openapi.yaml, made once, as JSON with open CORS and the package version", async () => {
    const { status, headers, text, body } = await api.call("/openapi.json");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(body).toEqual(served);
    expect((await api.call("/openapi.json")).text).toBe(text);
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(served.info.version).toBe(pkg.version);
    const contract = loadOpenApi();
    expect(served).toEqual({ ...contract, info: { ...contract.info, version: pkg.version } });
    const head = await api.call("/openapi.json", { method: "HEAD" });
    expect([head.status, head.text, head.headers.get("content-length")]).toEqual([
      200,
      "",
      headers.get("content-length"),
    ]);
  });

  test("behavior: from the sources the YAML is parsed once per edit, then read as JSON from the parse cache", () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-cache-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const cacheDir = pathToFileURL(`${dir}/`);
    const source = readFileSync(new URL("../../schema/openapi.yaml", import.meta.url), "utf8");
    const first = readOpenApiSource(cacheDir);
    expect(first).toEqual(parseYaml(source));
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, files[0]!), "utf8"))).toEqual(first);
    // The second read is the cached file's (marked here), not a new parse.
    writeFileSync(
      join(dir, files[0]!),
      JSON.stringify({ ...first, info: { ...first.info, title: "cached" } }),
    );
    expect(readOpenApiSource(cacheDir).info.title).toBe("cached");
  });

  test("behavior: it is structurally valid OpenAPI 3.1: every $ref resolves, every response has a JSON schema", () => {
    expect(served.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof served.info.title).toBe("string");
    expect(typeof served.info.version).toBe("string");
    const refs = listRefs(served);
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter(({ ref }) => resolvePointer(served, ref) === undefined)).toEqual([]);
    expect(Object.keys(served.paths)).toEqual(PATHS);

    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(served.paths)) {
      expect(Object.keys(item), path).toEqual(["get"]);
      const operation = item.get as unknown as Json;
      expect(typeof operation.operationId).toBe("string");
      operationIds.add(operation.operationId as string);
      expect(String(operation.description).length, `${path} describes itself`).toBeGreaterThan(80);
      for (const parameter of inline(served, operation.parameters) as Json[]) {
        expect(Object.keys(parameter).sort(), `${path} ${parameter.name}`).toEqual(
          ["description", "in", "name", "required", "schema"].sort(),
        );
        // Listing and DEX Screener paths name their network (and a listing its market pair) in the path.
        expect(parameter.in).toBe(path.includes(`{${parameter.name as string}}`) ? "path" : "query");
        ajv.compile(parameter.schema as object);
      }
      const responses = operation.responses as Json;
      expect(Object.keys(responses), path).toEqual(
        expect.arrayContaining(["200", "400", "405", "429", "500", "503"]),
      );
      for (const status of Object.keys(responses)) {
        const response = inline(served, responses[status]) as Json;
        expect(typeof response.description, `${path} ${status}`).toBe("string");
        // A 304 has no body by definition; every other answer is JSON.
        if (status === "304") expect(response.content, `${path} 304`).toBeUndefined();
        else bodyValidator(served, path, status);
      }
      const headers = Object.keys((responses["200"] as Json).headers as Json);
      expect(headers).toEqual(
        path === "/api/swaps_24h"
          ? ["X-Indexed-Block", "X-Data-Age", "X-Next-Cursor", "Link"]
          : STREAMED_PATHS.includes(path)
            ? ["X-Indexed-Block", "X-Data-Age"]
            : ["X-Indexed-Block", "X-Data-Age", "ETag", "Cache-Control"],
      );
      expect(Object.keys(responses).includes("304"), path).toBe(!STREAMED_PATHS.includes(path));
    }
    expect(operationIds.size).toBe(PATHS.length);
    expect(Object.keys((served.paths["/api/quote"]!.get as unknown as Json).responses as Json)).toContain(
      "422",
    );
  });

  test("behavior: every example in the document matches its schema", () => {
    let checked = 0;
    const visit = (node: unknown, at: string) => {
      if (typeof node !== "object" || node === null) return;
      const media = node as Json;
      if (media.schema !== undefined && media.example !== undefined) {
        expectValid(ajv.compile(inline(served, media.schema) as object), media.example, at);
        checked++;
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${at}/${key}`);
    };
    visit(served, "#");
    expect(checked).toBeGreaterThanOrEqual(9);
  });

  test("behavior: every documented path is a registered route, and every documented route is in the document", async () => {
    // The server started: docsPlugin found no drift (it refuses to start otherwise, below).
    for (const path of Object.keys(served.paths)) {
      expect(api.app.hasRoute({ method: "GET", url: path.replace(/\{([a-z_]+)\}/g, ":$1") }), path).toBe(
        true,
      );
    }
    expect((await api.call("/nope")).body).toEqual({ error: "Unknown path /nope." });
    for (const path of Object.keys(served.paths)) {
      const url = path.replace("{network}", "bsc").replace("{market_pair}", "nonsense");
      const { status, body } = await api.call(url);
      expect([status, JSON.stringify(body ?? null)], url).not.toContainEqual(
        expect.stringMatching(/Unknown path/),
      );
    }
  });
});

describe("the routes and the document name the same paths", () => {
  const contract = loadOpenApi();
  const routes = Object.entries(contract.paths).map(([path, item]) => ({
    path: path.replace(/\{([a-z_]+)\}/g, ":$1"),
    operationId: item.get.operationId,
  }));
  const start = async (documented: typeof routes) => {
    const app = fastify();
    onTestFinished(() => app.close());
    await app.register(docsPlugin, { routes: documented });
    await app.ready();
  };

  test("error: a documented path no route serves stops the start", async () => {
    // The whole list starts (the servers of these tests); one path less does not.
    await expect(start(routes.filter(({ path }) => path !== "/cmc/:network/ticker"))).rejects.toThrow(
      "The routes and schema/openapi.yaml disagree: /cmc/{network}/ticker (listingCoinMarketCapticker) of schema/openapi.yaml is served by no route.",
    );
  });

  test("error: a route whose operation the document lacks, or puts elsewhere, stops the start", async () => {
    await expect(start([...routes, { path: "/api/quote2", operationId: "getQuote" }])).rejects.toThrow(
      "GET /api/quote2 (getQuote) is not at that path in schema/openapi.yaml.",
    );
    expect(() => documentedRoute("getQuote2")).toThrow("schema/openapi.yaml has no operation getQuote2.");
  });
});

describe("the values the code holds are the document's", () => {
  const contract = loadOpenApi();
  /** The parameter `name` of GET `path`, its $refs inlined. */
  const parameter = (path: string, name: string) =>
    (
      inlineRefs(contract, contract.paths[path]?.get.parameters) as {
        name: string;
        description: string;
        schema: Json;
      }[]
    ).find((candidate) => candidate.name === name)!;

  test("behavior: networks, limits and defaults", () => {
    expect(contract.components.schemas?.Network).toMatchObject({ enum: NETWORKS });
    expect(parameter("/api/quote", "network").schema.enum).toEqual(NETWORKS);
    const limit = parameter("/api/swaps_24h", "limit");
    expect([limit.schema.maximum, limit.description]).toEqual([
      MAX_SWAPS_LIMIT,
      expect.stringContaining(`(1 to ${MAX_SWAPS_LIMIT})`),
    ]);
    expect(parameter("/coingecko/{network}/historical_trades", "limit").description).toContain(
      `1 to ${MAX_TRADES_LIMIT}: the newest`,
    );
    expect(contract.paths["/coingecko/{network}/historical_trades"]?.get).toMatchObject({
      description: expect.stringContaining(`limit 1-${MAX_TRADES_LIMIT.toLocaleString("en-US")} keeps`),
    });
    expect(parameter("/dexscreener/{network}/events", "toBlock").description).toContain(
      `at most ${MAX_EVENT_BLOCKS.toLocaleString("en-US")} blocks after fromBlock`,
    );
    expect(contract.paths["/dexscreener/{network}/events"]?.get).toMatchObject({
      description: expect.stringContaining(`a range holds at most ${MAX_EVENT_BLOCKS} blocks`),
    });
    for (const path of ["/coingecko/{network}/orderbook", "/cmc/{network}/orderbook/{market_pair}"]) {
      expect(parameter(path, "depth").description).toContain(`default ${DEFAULT_BOOK_DEPTH})`);
      expect(parameter(path, "depth").description).toContain(
        `${MAX_BOOK_DEPTH / 2} levels a side. At most ${MAX_BOOK_DEPTH}.`,
      );
      expect(parameter(path, "range").description).toContain(`default ${DEFAULT_BOOK_RANGE})`);
    }
  });
});

describe("real answers match the document", () => {
  test("behavior: success answers of the three endpoints, with and without network and limit", async () => {
    const cases: [string, string][] = [
      ["/api/quote", "/api/quote?sellToken=BNB&buyToken=USDT"],
      ["/api/quote", "/api/quote?network=eth&sellToken=WBTC&buyToken=ETH"],
      ["/api/quote", "/api/quote?network=bsc&sellToken=DUST&buyToken=USDT"],
      ["/api/swaps_24h", "/api/swaps_24h"],
      ["/api/swaps_24h", "/api/swaps_24h?network=eth"],
      ["/api/swaps_24h", "/api/swaps_24h?limit=1"],
      ["/api/trade_volume_usd_7d", "/api/trade_volume_usd_7d"],
      ["/api/trade_volume_usd_7d", "/api/trade_volume_usd_7d?network=eth"],
    ];
    for (const [path, url] of cases) {
      const { status, headers, body } = await api.call(url);
      expect(status, url).toBe(200);
      expectValid(bodyValidator(served, path, "200"), body, url);
      expect(headers.get("x-indexed-block"), url).toMatch(/^\d+$/);
      expect(headers.get("x-data-age"), url).toMatch(/^\d+$/);
    }
    // The export's every line matches its line schema.
    const exported = await api.call("/api/swaps_export?from=0");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const lines = exported.text.split("\n").filter((line) => line !== "");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines)
      expectValid(bodyValidator(served, "/api/swaps_export", "200"), JSON.parse(line), line);
    // The swaps list is not trivially empty, and a limited page carries its paging headers.
    expect(((await api.call("/api/swaps_24h")).body as unknown[]).length).toBeGreaterThan(1);
    const page = await api.call("/api/swaps_24h?limit=1");
    const cursor = (inlineRefs(served, served.paths["/api/swaps_24h"]?.get.parameters) as Json[]).find(
      (candidate) => candidate.name === "cursor",
    )!.schema as { pattern: string };
    expect(page.headers.get("x-next-cursor")).toMatch(new RegExp(cursor.pattern));
    expect(page.headers.get("link")).toMatch(/^<\/api\/swaps_24h\?.*cursor=.*>; rel="next"$/);
  });

  test("error: 400, 405, 422, 503 and 500 answers match the error schema of their status", async () => {
    const cases: [TestServer, string, string, RequestInit?][] = [
      [api, "/api/quote", "/api/quote?sellToken=BNB"],
      [api, "/api/quote", "/api/quote?sellToken=BNB&buyToken=USDT&network=BSC"],
      [api, "/api/swaps_24h", "/api/swaps_24h?limit=0"],
      [api, "/api/swaps_24h", "/api/swaps_24h?cursor=nonsense"],
      [api, "/api/swaps_export", "/api/swaps_export?from=yesterday"],
      [api, "/api/swaps_export", "/api/swaps_export"],
      [api, "/api/trade_volume_usd_7d", "/api/trade_volume_usd_7d?network=solana"],
      [api, "/api/quote", "/api/quote?sellToken=BNB&buyToken=USDT", { method: "POST" }],
      [api, "/api/swaps_24h", "/api/swaps_24h", { method: "DELETE" }],
      [api, "/api/quote", "/api/quote?sellToken=LONELY&buyToken=USDT"],
      [cold, "/api/quote", "/api/quote?network=eth&sellToken=WETH&buyToken=USDC"],
      [cold, "/api/swaps_24h", "/api/swaps_24h?network=eth"],
      [api, "/api/trade_volume_usd_7d", "/api/trade_volume_usd_7d?network=polygon"],
    ];
    const statuses = new Set<number>();
    for (const [server, path, url, init] of cases) {
      const { status, body, headers } = await server.call(url, init);
      expect(status, url).toBeGreaterThanOrEqual(400);
      statuses.add(status);
      expectValid(bodyValidator(served, path, String(status)), body, `${init?.method ?? "GET"} ${url}`);
      if (status === 405) expect(headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
    expect([...statuses].sort()).toEqual([400, 405, 422, 503]);

    const { reader, close } = await createFixtureReader();
    onTestFinished(close);
    const broken: MarketReader = Object.assign(Object.create(reader) as MarketReader, {
      listDailyVolumes: async () => {
        throw new Error("the store failed");
      },
    });
    const server = await startServer(broken);
    onTestFinished(server.close);
    const failed = await server.call("/api/trade_volume_usd_7d");
    expect(failed.status).toBe(500);
    expectValid(bodyValidator(served, "/api/trade_volume_usd_7d", "500"), failed.body, "500");
  });

  test("error: an unknown path is a 404 that matches the document's NotFound response", async () => {
    const { status, body } = await api.call("/api/nope");
    expect(status).toBe(404);
    expectValid(bodyValidator(served, "#/components/responses/NotFound", ""), body, "404");
  });

  test("error: the schemas reject what the contract forbids", () => {
    const swaps = bodyValidator(served, "/api/swaps_24h", "200");
    const volumes = bodyValidator(served, "/api/trade_volume_usd_7d", "200");
    const quote = bodyValidator(served, "/api/quote", "200");
    const error = bodyValidator(served, "/api/quote", "400");
    const swap = (fields: Json) => {
      const side = {
        name: "Tether USD",
        symbol: "USDT",
        decimals: "18",
        address: "0x55d398326f99059ff775485246999027b3197955",
        amount: "1500000000000000000",
        amount_decimal: "1.50000000",
      };
      return [
        {
          tx_hash: `0x${"ab".repeat(32)}`,
          block_number: "12",
          sell_token: side,
          buy_token: { ...side, address: "" },
          trade_volume_usd: "1.5",
          ...fields,
        },
      ];
    };
    expect(swaps(swap({}))).toBe(true);
    for (const bad of [
      { block_number: 12 },
      { block_number: "012" },
      { trade_volume_usd: "1.50" },
      { trade_volume_usd: "1e3" },
      { tx_hash: `0x${"AB".repeat(32)}` },
      { extra: "x" },
      {
        buy_token: {
          name: "x",
          symbol: "x",
          decimals: "18",
          address: "",
          amount: "1",
          amount_decimal: "1.5",
        },
      },
      {
        sell_token: {
          name: "x",
          symbol: "x",
          decimals: "18",
          address: "0x55D398326F99059FF775485246999027B3197955",
          amount: "1",
          amount_decimal: "0.00000000",
        },
      },
    ]) {
      expect(swaps(swap(bad)), JSON.stringify(bad)).toBe(false);
    }
    const day = (date: string) => ({ date, address_count: "1", trade_volume_usd: "2" });
    const week = ["22", "21", "20", "19", "18", "17", "16"].map((d) => day(`2026-11-${d}`));
    expect(volumes(week)).toBe(true);
    expect(volumes(week.slice(1))).toBe(false);
    expect(volumes([day("2026-02-30"), ...week.slice(1)])).toBe(false);
    expect(quote({ result: { network: "bsc", price: "1" } })).toBe(false);
    expect(error({ error: "Bad." })).toBe(true);
    expect(error({ error: "Bad.", status: 400 })).toBe(false);
  });

  test("args: the query schemas accept and reject what the server does", async () => {
    const query = newAjv({ coerceTypes: true }).compile(documentedRoute("listSwaps24h").schema.querystring!);
    const cursor = (await api.call("/api/swaps_24h?limit=1")).headers.get("x-next-cursor")!;
    for (const search of [
      "",
      "network=eth",
      "network=ETH",
      "limit=1",
      `limit=${MAX_SWAPS_LIMIT}`,
      `limit=${MAX_SWAPS_LIMIT + 1}`,
      "limit=0",
      "limit=1.5",
      `limit=2&cursor=${cursor}`,
    ]) {
      const params = Object.fromEntries(new URLSearchParams(search));
      const { status } = await api.call(`/api/swaps_24h?${search}`, { method: "HEAD" });
      expect(query(params) ? 200 : 400, search).toBe(status);
    }
  });
});
