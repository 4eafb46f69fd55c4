import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";

const SRC = new URL("../../src", import.meta.url).pathname;

/**
 * Files `entry` loads through static imports and re-exports (type-only ones load nothing), and
 * the bare specifiers they load that way.
 */
function staticClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gm)) {
      if (match[1] !== undefined) continue;
      const specifier = match[2]!;
      if (specifier.startsWith(".")) pending.push(join(file, "..", specifier).replace(/\.js$/, ".ts"));
      else packages.add(specifier);
    }
  }
  return { files, packages };
}

describe("the composition root", () => {
  test("behavior: main loads the devnet package only through loadDevnet's dynamic load, for the embedded demo", () => {
    const { files, packages } = staticClosure(join(SRC, "main.ts"));
    const loaded = [...files].map((file) => relative(SRC, file));
    expect(loaded.length).toBeGreaterThan(50);
    expect(loaded.filter((file) => file.startsWith("..") || file.includes("devnet/"))).toEqual([]);
    expect([...packages].filter((name) => name.startsWith("@swapgraph/devnet") || name === "tsx")).toEqual(
      [],
    );
    expect(readFileSync(join(SRC, "main.ts"), "utf8")).toContain("await loadDevnet()");
    const loader = readFileSync(join(SRC, "loadDevnet.ts"), "utf8");
    expect(loader).toContain('await import("tsx/esm/api")');
    expect(loader).toMatch(/await tsImport\(`\$\{DEVNET\}\/startDevnet\.js`, import\.meta\.url\)/);
  });
});
