import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";

const SRC = new URL("../../src", import.meta.url).pathname;

// Imports flow one way: pure helpers and domain types -> chain, store, pricing -> indexer ->
// graphql -> rest -> the composition root (STYLE.md). The devnet only needs config and domain.
const RANK: Record<string, number> = {
  errors: 0,
  domain: 0,
  config: 0,
  chain: 1,
  store: 1,
  pricing: 1,
  devnet: 1,
  indexer: 2,
  graphql: 3,
  rest: 4,
  root: 5,
};

/** Folders a part must never import from, whatever the rank says. */
const FORBIDDEN: Record<string, string[]> = {
  pricing: ["chain", "store", "indexer", "devnet"], // pricing does no I/O
  graphql: ["chain", "store", "indexer", "devnet"], // resolvers read the MarketReader only
  rest: ["chain", "store", "indexer", "devnet", "pricing"], // REST talks to GraphQL only
  store: ["chain", "pricing", "indexer"],
};

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

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
  file: string;
}

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/import\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"/g)) {
      const target = join(file, "..", match[2]!);
      out.push({
        from: partOf(file),
        to: partOf(target),
        typeOnly: match[1] !== undefined,
        file: relative(SRC, file),
      });
    }
  }
  return out;
}

describe("architecture", () => {
  test("behavior: imports flow one way between the parts", () => {
    const all = edges();
    expect(all.length).toBeGreaterThan(100);
    const upward = all.filter(
      (e) => e.from !== e.to && !e.typeOnly && (RANK[e.to] ?? 99) > (RANK[e.from] ?? -1),
    );
    expect(upward.map((e) => `${e.file} -> ${e.to}`)).toEqual([]);
  });

  test("behavior: pricing does no I/O, resolvers and REST never reach the store or the chain", () => {
    const broken = edges().filter((e) => FORBIDDEN[e.from]?.includes(e.to));
    expect(broken.map((e) => `${e.file} -> ${e.to}`)).toEqual([]);
  });

  test("behavior: the REST handlers see GraphQL through the executor only, never the reader or contexts", () => {
    const text = readFileSync(join(SRC, "rest", "createRestHandlers.ts"), "utf8");
    const imported = [...text.matchAll(/from\s+"(\.[^"]+)"/g)].map((match) => match[1]!);
    expect(imported.filter((path) => path.includes("/graphql/"))).toEqual([
      "../graphql/createGraphqlExecutor.js",
      "../graphql/listSwaps.js",
    ]);
    expect(imported).not.toContain("../domain/market.js");
    expect(text).not.toMatch(/\breader\b|createGraphqlContext|getConfig/);
  });
});
