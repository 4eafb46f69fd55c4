import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const SRC = new URL("../../src", import.meta.url).pathname;
/** The devnet, a workspace package of its own: the product loads it only for the embedded demo. */
const DEVNET = new URL("../../packages/devnet/src", import.meta.url).pathname;
const DEVNET_PACKAGE = "@swapgraph/devnet";

// Imports flow one way (the house style: ../shared/STYLE.md, outside the repository), type-only
// imports included: a type names what it needs as much as a value does. Lower ranks never import
// higher ones; equal ranks may, as long as no circle forms, between folders or between files
// (checked on their own below). A folder under src/ is a part named after it; files at the top
// are the composition root, except the error module. A new folder needs a rank here. The devnet
// (packages/devnet) is no part: it imports nothing from src/, and src/ reaches it only through
// src/loadDevnet.ts (checked below).
const RANK: Record<string, number> = {
  // Imports nothing from other parts.
  domain: 0,
  // Infrastructure helpers with no idea of the market (caches, counters, rate limits, clocks).
  lib: 0,
  errors: 0,
  config: 1,
  chain: 2,
  store: 2,
  pricing: 2,
  // The read model the API answers from: memory over the store, fed by the indexer or a follower.
  views: 3,
  // What both edges publish alike (cursor codec, page bound, public error messages).
  api: 3,
  // Siblings that meet only in views: the indexer writes the store and tells the views (through
  // the LiveViews it is handed); GraphQL reads the views.
  indexer: 4,
  graphql: 4,
  // The process's Prometheus registry: counters of every part, gauges read from the views.
  metrics: 4,
  http: 5,
  root: 6,
};

/** Folders a part must never import from, whatever the rank says. */
const FORBIDDEN: Record<string, string[]> = {
  pricing: ["chain", "store", "views", "indexer"], // pricing does no I/O
  store: ["chain", "pricing", "views", "indexer"],
  views: ["chain", "indexer"], // the views read the store; only the indexer reads the chain
  indexer: ["graphql", "api", "http"],
  graphql: ["chain", "store", "indexer"], // resolvers read the MarketReader only
  metrics: ["chain", "store", "indexer", "graphql", "api"], // gauges read the MarketReader only
  api: ["chain", "store", "views", "indexer", "pricing", "graphql"], // shared by both edges
  // The HTTP edge asks the read model's answers (src/views/answers) and serves /graphql.
  http: ["chain", "store", "indexer", "pricing"],
};

/**
 * The HTTP edge by audience: what each folder under src/http may import from its siblings (files
 * at src/http's top are shared by all). The audiences stand apart; each takes its routes'
 * parameter schemas from the contract (openapi: schema/openapi.yaml), which imports none of them.
 */
const HTTP_FOLDERS: Record<string, string[]> = {
  api: ["openapi"],
  listings: ["api", "openapi"],
  dexscreener: ["api", "openapi"],
  openapi: [],
  plugins: ["openapi", "pages"],
  pages: [],
};

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
  /** The importing file, relative to src/. */
  file: string;
}

function partOf(file: string): string {
  const rel = relative(SRC, file);
  if (!rel.includes("/")) return rel.startsWith("errors.") ? "errors" : "root";
  return rel.split("/")[0]!;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * Every module reference of a file, as the compiler parses it: imports and re-exports (type-only
 * or not), `import("...")` calls and `typeof import("...")` types; relative ones only unless `all`.
 */
function moduleReferences(file: string, all = false): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: { specifier: string; typeOnly: boolean }[] = [];
  const add = (node: ts.Node | undefined, typeOnly: boolean) => {
    if (node !== undefined && ts.isStringLiteral(node) && (all || node.text.startsWith("."))) {
      out.push({ specifier: node.text, typeOnly });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allNamedTypes =
        named !== undefined &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        clause?.name === undefined &&
        named.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier, clause?.isTypeOnly === true || allNamedTypes);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument)) add(argument.literal, true);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

let parsed: Edge[] | undefined;

/**
 * The file-to-file references of every source file, relative to src/ (`./x.js` names x.ts; parsed
 * once: the compiler is slow on large files).
 */
function fileEdges(): Edge[] {
  parsed ??= sourceFiles(SRC).flatMap((file) =>
    moduleReferences(file).map(({ specifier, typeOnly }) => ({
      from: relative(SRC, file),
      to: relative(SRC, join(file, "..", specifier.replace(/\.js$/, ".ts"))),
      typeOnly,
      file: relative(SRC, file),
    })),
  );
  return parsed;
}

/** The part-to-part references of every source file. */
function edges(): Edge[] {
  return fileEdges().map((e) => ({ ...e, from: partOf(join(SRC, e.from)), to: partOf(join(SRC, e.to)) }));
}

const describeEdge = (e: Edge) => `${e.file} -> ${e.to}${e.typeOnly ? " (type-only)" : ""}`;

/**
 * The circles of a graph of folders or files, one per strongly connected component of more than
 * one node (Tarjan), each written as the nodes in order with the file that makes each step, e.g.
 * `domain -> config (domain/market.ts) -> domain (config/types.ts)` (between files, the file is
 * the step's start: `a.ts -> b.ts -> a.ts (type-only)`).
 */
function findCircles(all: readonly Edge[]): string[] {
  const between = all.filter((e) => e.from !== e.to);
  const next = new Map<string, Edge[]>();
  for (const e of between) next.set(e.from, [...(next.get(e.from) ?? []), e]);
  const nodes = [...new Set(between.flatMap((e) => [e.from, e.to]))].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const { to } of next.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return components.map((component) => {
    // The shortest way round from the component's first folder back to itself (breadth first).
    const start = [...component].sort()[0]!;
    const via = new Map<string, Edge>();
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift()!;
      const steps = (next.get(node) ?? []).filter((e) => component.includes(e.to));
      const back = steps.find((e) => e.to === start);
      if (back !== undefined) {
        const path = [back];
        for (let at = node; at !== start; at = via.get(at)!.from) path.unshift(via.get(at)!);
        const how = (e: Edge) =>
          [e.file === e.from ? [] : [e.file], e.typeOnly ? ["type-only"] : []].flat().join(", ");
        return [start, ...path.map((e) => (how(e) === "" ? e.to : `${e.to} (${how(e)})`))].join(" -> ");
      }
      for (const e of steps) {
        if (e.to !== start && !via.has(e.to)) {
          via.set(e.to, e);
          queue.push(e.to);
        }
      }
    }
    return component.join(" <-> ");
  });
}

describe("architecture", () => {
  test("behavior: every folder under src has a rank", () => {
    const parts = new Set(edges().flatMap((e) => [e.from, e.to]));
    expect(parts.size).toBeGreaterThan(8);
    expect([...parts].filter((part) => RANK[part] === undefined)).toEqual([]);
  });

  test("behavior: imports flow one way between the parts, type-only imports included", () => {
    const all = edges();
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((e) => e.typeOnly)).toBe(true);
    const upward = all.filter((e) => e.from !== e.to && (RANK[e.to] ?? 99) > (RANK[e.from] ?? -1));
    expect(upward.map(describeEdge)).toEqual([]);
  });

  test("behavior: no circle between folders, type-only imports included", () => {
    expect(findCircles(edges())).toEqual([]);
  });

  test("behavior: the circle check sees a circle made of a type-only import, and names its files", () => {
    const made: Edge[] = [
      { from: "domain", to: "config", typeOnly: true, file: "domain/market.ts" },
      { from: "config", to: "domain", typeOnly: false, file: "config/types.ts" },
      { from: "config", to: "errors", typeOnly: false, file: "config/loadConfig.ts" },
      { from: "views", to: "store", typeOnly: true, file: "views/createLiveViews.ts" },
      { from: "store", to: "pricing", typeOnly: false, file: "store/a.ts" },
      { from: "pricing", to: "views", typeOnly: true, file: "pricing/b.ts" },
    ];
    expect(findCircles(made).sort()).toEqual([
      "config -> domain (config/types.ts) -> config (domain/market.ts, type-only)",
      "pricing -> views (pricing/b.ts, type-only) -> store (views/createLiveViews.ts, type-only) -> pricing (store/a.ts)",
    ]);
  });

  test("behavior: no circle between files, type-only imports included", () => {
    const all = fileEdges();
    expect(all.length).toBeGreaterThan(100);
    expect(findCircles(all)).toEqual([]);
  });

  test("behavior: the circle check sees a circle of files made of a type-only import", () => {
    const made: Edge[] = [
      { from: "chain/a.ts", to: "chain/b.ts", typeOnly: false, file: "chain/a.ts" },
      { from: "chain/b.ts", to: "chain/a.ts", typeOnly: true, file: "chain/b.ts" },
      { from: "chain/b.ts", to: "errors.ts", typeOnly: false, file: "chain/b.ts" },
    ];
    expect(findCircles(made)).toEqual(["chain/a.ts -> chain/b.ts -> chain/a.ts (type-only)"]);
  });

  test("behavior: the devnet package imports nothing from the product, types included", () => {
    const files = sourceFiles(DEVNET);
    expect(files.length).toBeGreaterThan(50);
    const outside = files.flatMap((file) =>
      moduleReferences(file, true)
        .filter(({ specifier }) =>
          specifier.startsWith(".")
            ? relative(DEVNET, join(file, "..", specifier)).startsWith("..")
            : specifier === "swapgraph" || specifier.startsWith("swapgraph/"),
        )
        .map(({ specifier }) => `${relative(DEVNET, file)} -> ${specifier}`),
    );
    expect(outside).toEqual([]);
  });

  test("behavior: the product reaches the devnet through src/loadDevnet.ts alone, never by a path", () => {
    const references = sourceFiles(SRC).flatMap((file) =>
      moduleReferences(file, true)
        .filter(
          ({ specifier }) => specifier.startsWith(DEVNET_PACKAGE) || specifier.includes("packages/devnet"),
        )
        .map(
          ({ specifier, typeOnly }) =>
            `${relative(SRC, file)} -> ${specifier}${typeOnly ? " (type-only)" : ""}`,
        ),
    );
    // The type of the demo's entry; the module itself is loaded by tsx at run time (a string).
    expect(references).toEqual([`loadDevnet.ts -> ${DEVNET_PACKAGE}/startDevnet.js (type-only)`]);
  });

  test("behavior: domain imports nothing from any other part, types included", () => {
    const out = edges().filter((e) => e.from === "domain" && e.to !== "domain");
    expect(out.map(describeEdge)).toEqual([]);
  });

  test("behavior: pricing does no I/O, the views and resolvers never reach the chain, REST never the store", () => {
    const broken = edges().filter((e) => FORBIDDEN[e.from]?.includes(e.to));
    expect(broken.map(describeEdge)).toEqual([]);
  });

  test("behavior: every folder under src/http is a known audience, and imports only the siblings it may", () => {
    const http = join(SRC, "http");
    const folders = readdirSync(http, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((entry) => entry.name).sort()).toEqual(Object.keys(HTTP_FOLDERS).sort());
    const folderOf = (file: string) => {
      const parts = file.split("/");
      return parts[0] === "http" && parts.length > 2 ? parts[1]! : undefined;
    };
    const crossing = fileEdges().filter((e) => {
      const from = folderOf(e.from);
      const to = folderOf(e.to);
      return from !== undefined && to !== undefined && from !== to && !HTTP_FOLDERS[from]!.includes(to);
    });
    expect(crossing.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  test("behavior: no file under src/http formats a decimal or computes a price: the views' answers do", () => {
    const formatters = ["domain/formatDecimal.ts", "domain/formatPoolPrice.ts"];
    const out = fileEdges().filter(
      (e) => e.from.startsWith("http/") && (formatters.includes(e.to) || e.to.startsWith("pricing/")),
    );
    expect(out.map(describeEdge)).toEqual([]);
  });

  test("behavior: /api, DEX Screener and the listings read the views, never GraphQL", () => {
    const out = fileEdges().filter(
      (e) =>
        ["http/api/", "http/dexscreener/", "http/listings/"].some((folder) => e.from.startsWith(folder)) &&
        e.to.startsWith("graphql/"),
    );
    expect(out.map(describeEdge)).toEqual([]);
  });

  test("behavior: the OpenAPI builders never see GraphQL, and the views through their answers only", () => {
    const files = sourceFiles(join(SRC, "http", "openapi"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const imported = [...text.matchAll(/from\s+"(\.[^"]+)"/g)].map((match) => match[1]!);
      expect(
        imported.filter((path) => path.includes("/graphql/")),
        file,
      ).toEqual([]);
      expect(imported, file).not.toContain("../../domain/market.js");
      expect(
        imported.filter((path) => path.includes("/views/") && !path.includes("/views/answers/")),
        file,
      ).toEqual([]);
      expect(text, file).not.toMatch(/\breader\b|createGraphqlContext|getConfig/);
    }
  });

  test("behavior: /api and the listings read the views through their answers and the reader types", () => {
    const files = ["api", "listings"].flatMap((folder) => sourceFiles(join(SRC, "http", folder)));
    expect(files.length).toBeGreaterThan(12);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const imported = [...text.matchAll(/from\s+"(\.[^"]+)"/g)].map((match) => match[1]!);
      expect(imported, file).not.toContain("../../domain/market.js");
      expect(
        imported.filter(
          (path) =>
            path.includes("/views/") && !path.includes("/views/answers/") && path !== "../../views/types.js",
        ),
        file,
      ).toEqual([]);
      expect(text, file).not.toMatch(/createGraphqlContext|getConfig/);
    }
  });
});
