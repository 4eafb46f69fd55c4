import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";

const SRC = new URL("../../src", import.meta.url).pathname;

/** Files `entry` loads through static imports and re-exports (type-only ones load nothing). */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"/gm)) {
      if (match[1] === undefined) pending.push(join(file, "..", match[2]!).replace(/\.js$/, ".ts"));
    }
  }
  return seen;
}

describe("the composition root", () => {
  test("behavior: main loads the devnet only by a dynamic import, for the embedded demo", () => {
    const loaded = [...staticClosure(join(SRC, "main.ts"))].map((file) => relative(SRC, file));
    expect(loaded.length).toBeGreaterThan(50);
    expect(loaded.filter((file) => file.startsWith("devnet/"))).toEqual([]);
    expect(readFileSync(join(SRC, "main.ts"), "utf8")).toContain('await import("./devnet/startDevnet.js")');
  });
});
