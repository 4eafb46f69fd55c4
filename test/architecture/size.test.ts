import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = new URL("../..", import.meta.url).pathname;
// The product's sources and the devnet's (a workspace package, held to the same measure).
const SOURCE_DIRS = [join(ROOT, "src"), join(ROOT, "packages", "devnet", "src")];

// A function a reader takes in at once: a screen or two. A factory's closure counts whole, nested
// functions included, so a long createX is cut into steps of its own rather than hidden inside.
const MAX_FUNCTION_LINES = 120;
const MAX_FILE_LINES = 450;

/** Source files under `dir`, without the committed contract artifacts (generated). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === "artifacts"
        ? []
        : sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

interface Measured {
  file: string;
  name: string;
  lines: number;
}

/** Every function-like node with a body in `text` and the lines it spans. */
function measureFunctions(file: string, text: string): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const named = node.name?.getText(source);
      const name =
        named ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : "(anonymous)");
      found.push({ file, name, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("size", () => {
  const files = SOURCE_DIRS.flatMap(sourceFiles);

  test("args: the measure counts a closure whole, nested functions included", () => {
    const inner = Array.from({ length: 10 }, (_, i) => `    const v${i} = ${i};`).join("\n");
    const text = `export function outer() {\n  function inner() {\n${inner}\n  }\n  return inner;\n}\n`;
    const measured = measureFunctions("sample.ts", text);
    expect(measured.map((m) => [m.name, m.lines])).toEqual([
      ["outer", 15],
      ["inner", 12],
    ]);
  });

  test(`behavior: no function in src/ or packages/devnet/src/ is longer than ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.length).toBeGreaterThan(200);
    expect(files.filter((file) => file.includes("/packages/devnet/")).length).toBeGreaterThan(50);
    const long = files
      .flatMap((file) => measureFunctions(relative(ROOT, file), readFileSync(file, "utf8")))
      .filter((m) => m.lines > MAX_FUNCTION_LINES)
      .map((m) => `${m.file}: ${m.name} (${m.lines} lines)`);
    expect(long).toEqual([]);
  });

  test(`behavior: no file in src/ or packages/devnet/src/ is longer than ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, "utf8").split("\n").length }))
      .filter((f) => f.lines > MAX_FILE_LINES)
      .map((f) => `${f.file} (${f.lines} lines)`);
    expect(long).toEqual([]);
  });

  // The edge parses, asks the read model and streams (answers are made in src/views/answers); its
  // contract is schema/openapi.yaml. Lines as `wc -l` counts them.
  const MAX_HTTP_LINES = 3_500;
  test(`behavior: the HTTP edge (src/http) holds fewer than ${MAX_HTTP_LINES} lines`, () => {
    const http = sourceFiles(join(ROOT, "src", "http"));
    expect(http.length).toBeGreaterThan(30);
    const lines = http.reduce((sum, file) => sum + (readFileSync(file, "utf8").match(/\n/g)?.length ?? 0), 0);
    expect(lines).toBeGreaterThan(1_000);
    expect(lines).toBeLessThan(MAX_HTTP_LINES);
  });
});
