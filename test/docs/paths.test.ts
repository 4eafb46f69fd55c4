import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";

// The documents a reader follows: the README and docs/ (CHANGELOG.md is history and names what was).
const DOCUMENTS = [
  "README.md",
  ...readdirSync("docs").flatMap((name) => (name.endsWith(".md") ? [`docs/${name}`] : [])),
];
// Repository paths as the documents write them in code spans.
const PATH = /^(?:src|test|bench|scripts|docs|schema|config|web|\.ci)\/[\w./-]*[\w-]$/;

/** The words of a document's code: fenced blocks, then inline spans in the rest. */
function codeSpanWords(text: string): string[] {
  const fenced = [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
  const rest = text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");
  const inline = [...rest.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return [...fenced, ...inline].flatMap((code) => code.split(/\s+/));
}

/** What each document names that does not exist: paths in code spans, relative links, npm scripts. */
function missingNames(file: string, scripts: Record<string, string>): string[] {
  const text = readFileSync(file, "utf8");
  const missing: string[] = [];
  for (const word of codeSpanWords(text)) {
    const path = word.replace(/^['"(]+|['"),.:;]+$/g, "").replace(/[:#].*$/, "");
    if (PATH.test(path) && !existsSync(path)) missing.push(path);
  }
  for (const match of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    const target = match[1]!;
    if (!/^[a-z]+:/.test(target) && !existsSync(join(dirname(file), target))) missing.push(`link ${target}`);
  }
  for (const match of text.matchAll(/npm run ([\w:-]+)/g)) {
    if (scripts[match[1]!] === undefined) missing.push(`npm run ${match[1]}`);
  }
  return missing;
}

describe("the documents' names", () => {
  test("behavior: every file path, relative link and npm script named in README.md and docs/ exists", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as {
      scripts: Record<string, string>;
    };
    const missing = Object.fromEntries(
      DOCUMENTS.map((file) => [file, missingNames(file, scripts)] as const).filter(
        ([, names]) => names.length > 0,
      ),
    );
    expect(missing).toEqual({});
  });

  test("behavior: the check sees a name that does not exist", () => {
    // The check itself: a document naming a file, a link and a script that are not there.
    const names = codeSpanWords("Run `npx vitest run test/nowhere/gone.test.ts` and `src/also/gone.ts:12`.");
    expect(names.filter((word) => PATH.test(word.replace(/[:#].*$/, "")))).toEqual([
      "test/nowhere/gone.test.ts",
      "src/also/gone.ts:12",
    ]);
  });
});
