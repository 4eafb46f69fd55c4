import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parse, print } from "graphql";

/** Where every example is written: the demo's address as `npm start` prints it. */
const DEMO_BASE = "http://127.0.0.1:4000";

/** Where an example sits, for test names and failures. */
interface ExampleSource {
  file: string;
  line: number;
}

/** A `curl` in a `sh` block and the answer the doc shows after it (`$ curl ...` then output lines). */
export interface CurlExample extends ExampleSource {
  command: string;
  method: string;
  /** The path and query after DEMO_BASE. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The status the doc shows (`HTTP/1.1 400 ...` after `-i`), else 200. */
  status: number;
  /** Header names the doc shows after the status line, lowercase. */
  headerNames: string[];
  /** The body lines the doc shows ("" when none). */
  sample: string;
}

/** One operation of a `graphql` block. */
interface GraphqlExample extends ExampleSource {
  document: string;
}

/** A configuration file of a `json file=NAME` (or `jsonc file=NAME`) block. */
export interface ConfigFileExample extends ExampleSource {
  name: string;
  /** The file's JSON text (a jsonc block's comments removed). */
  json: string;
}

/** A `... npm start -- --config NAME` line: the environment it sets and the file it names. */
interface ConfigCommandExample extends ExampleSource {
  command: string;
  env: Record<string, string>;
  config: string;
}

/** Every example of some markdown files, each with where it is written. */
export interface DocExamples {
  curls: CurlExample[];
  graphql: GraphqlExample[];
  configFiles: ConfigFileExample[];
  configCommands: ConfigCommandExample[];
}

interface Block {
  info: string;
  line: number;
  lines: string[];
}

/** The fenced code blocks of a markdown text, with the line each one's content starts on. */
function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  text.split("\n").forEach((line, i) => {
    const fence = /^```(.*)$/.exec(line);
    if (open === undefined) {
      if (fence !== null) open = { info: fence[1]!.trim(), line: i + 2, lines: [] };
    } else if (fence !== null && fence[1]!.trim() === "") {
      blocks.push(open);
      open = undefined;
    } else {
      open.lines.push(line);
    }
  });
  if (open !== undefined) throw new Error(`a code block opened on line ${open.line - 1} never closes`);
  return blocks;
}

/**
 * Splits a shell command into words as sh would for the quoting the docs use: '...' literal,
 * "..." with \" and $VAR, bare words with $VAR; adjacent pieces join into one word.
 */
function shellWords(command: string, variables: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const expand = (text: string) =>
    text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
      const value = variables[name];
      if (value === undefined) throw new Error(`$${name} is not set by the example before it`);
      return value;
    });
  let i = 0;
  while (i < command.length) {
    const c = command[i]!;
    if (c === " " || c === "\t") {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${command}`);
      word = (word ?? "") + command.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let text = "";
      while (j < command.length && command[j] !== '"') {
        if (command[j] === "\\" && j + 1 < command.length) j++;
        text += command[j];
        j++;
      }
      if (j >= command.length) throw new Error(`unclosed " in: ${command}`);
      word = (word ?? "") + expand(text);
      i = j + 1;
    } else {
      const match = /^[^\s'"]+/.exec(command.slice(i))![0];
      word = (word ?? "") + expand(match);
      i += match.length;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The request a curl command line makes; any option the runner does not know is an error. */
function parseCurl(
  command: string,
  variables: Record<string, string>,
): Pick<CurlExample, "method" | "path" | "headers" | "body"> {
  const words = shellWords(command, variables).slice(1);
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (/^-[siSN]+$/.test(word) || word === "--compressed") continue;
    if (word === "-I") method = "HEAD";
    else if (word === "-X") method = words[++i];
    else if (word === "-H") {
      const header = words[++i] ?? "";
      const colon = header.indexOf(":");
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word === "-d" || word === "--data") body = words[++i];
    else if (word.startsWith("-"))
      throw new Error(`curl option ${word} is not one the examples' runner knows`);
    else if (url === undefined) url = word;
    else throw new Error(`a second URL in: ${command}`);
  }
  if (url === undefined || !url.startsWith(DEMO_BASE)) {
    throw new Error(`a curl example must ask the demo at ${DEMO_BASE}: ${command}`);
  }
  if (body !== undefined) headers["content-type"] ??= "application/x-www-form-urlencoded";
  return {
    method: method ?? (body === undefined ? "GET" : "POST"),
    path: url.slice(DEMO_BASE.length),
    headers,
    body,
  };
}

/** Status, header names and body of the answer shown after a `$ curl` line. */
function parseSample(output: string[]): Pick<CurlExample, "status" | "headerNames" | "sample"> {
  const statusLine = /^HTTP\/[\d.]+ (\d{3})/.exec(output[0] ?? "");
  if (statusLine === null) return { status: 200, headerNames: [], sample: output.join("\n").trim() };
  const blank = output.indexOf("");
  const headerLines = output.slice(1, blank < 0 ? undefined : blank);
  return {
    status: Number(statusLine[1]),
    headerNames: headerLines.map((line) => line.slice(0, line.indexOf(":")).trim().toLowerCase()),
    sample:
      blank < 0
        ? ""
        : output
            .slice(blank + 1)
            .join("\n")
            .trim(),
  };
}

/** A jsonc text without its `//` comments (those outside strings). */
function stripComments(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else {
      inString = c === '"';
      out += c;
    }
  }
  return out;
}

/** The commands of a `sh` block, each with the output lines the doc shows after it. */
function shellCommands(block: Block): { line: number; command: string; output: string[] }[] {
  const prompted = block.lines.some((line) => line.startsWith("$ "));
  const commands: { line: number; command: string; output: string[] }[] = [];
  let continuing = false;
  block.lines.forEach((raw, i) => {
    const current = commands[commands.length - 1];
    if (continuing && current !== undefined) {
      current.command += ` ${raw.trim().replace(/\\$/, "").trim()}`;
      continuing = raw.trimEnd().endsWith("\\");
      return;
    }
    const isCommand = prompted ? raw.startsWith("$ ") : raw.trim() !== "" && !raw.trim().startsWith("#");
    if (!isCommand) {
      current?.output.push(raw);
      return;
    }
    const text = prompted ? raw.slice(2) : raw;
    continuing = text.trimEnd().endsWith("\\");
    commands.push({ line: block.line + i, command: text.replace(/\\\s*$/, "").trim(), output: [] });
  });
  return commands;
}

/** Reads the examples of markdown files: curl requests, GraphQL operations and configuration. */
export function readDocExamples(files: readonly string[], root: string): DocExamples {
  const examples: DocExamples = { curls: [], graphql: [], configFiles: [], configCommands: [] };
  for (const file of files) {
    const text = readFileSync(`${root}/${file}`, "utf8");
    for (const block of fencedBlocks(text)) {
      const [lang, ...attributes] = block.info.split(/\s+/);
      const fileName = attributes.find((a) => a.startsWith("file="))?.slice("file=".length);
      if ((lang === "json" || lang === "jsonc") && fileName !== undefined) {
        const json = block.lines.join("\n");
        examples.configFiles.push({
          file,
          line: block.line,
          name: fileName,
          json: lang === "jsonc" ? stripComments(json) : json,
        });
      } else if (lang === "graphql") {
        // Each operation on its own: a block may hold several anonymous ones (not one valid request).
        for (const definition of parse(block.lines.join("\n")).definitions) {
          examples.graphql.push({
            file,
            line: block.line + (definition.loc?.startToken.line ?? 1) - 1,
            document: print(definition),
          });
        }
      } else if (lang === "sh") {
        const variables: Record<string, string> = {};
        for (const { line, command, output } of shellCommands(block)) {
          const words = command.split(/\s+/);
          const assignment = /^([A-Z_]+)=\$\(sha256sum (\S+) \| cut -d' ' -f1\)$/.exec(command);
          if (assignment !== null) {
            variables[assignment[1]!] = createHash("sha256")
              .update(readFileSync(`${root}/${assignment[2]!}`))
              .digest("hex");
          } else if (words[0] === "curl") {
            examples.curls.push({
              file,
              line,
              command,
              ...parseCurl(command, variables),
              ...parseSample(output),
            });
          } else if (/\bnpm start -- --config \S+$/.test(command)) {
            const env: Record<string, string> = {};
            for (const word of words) {
              const pair = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
              if (pair === null) break;
              env[pair[1]!] = pair[2]!;
            }
            examples.configCommands.push({ file, line, command, env, config: words[words.length - 1]! });
          }
        }
      }
    }
  }
  return examples;
}
