// Given to a spawned swapgraph with `--import` after tsx: appends the URL of every module the
// process resolves to the file SWAPGRAPH_RECORD_MODULES names, so a test can tell which code a
// start loaded. The same file is the hooks module (node:module's register runs it off-thread).
import { appendFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

let file;

/** Hook: receives the record file from register's data. */
export function initialize(data) {
  file = data.file;
}

/** Hook: tsx's resolution (registered before this one) maps .js specifiers to the .ts sources. */
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (file !== undefined) appendFileSync(file, `${result.url}\n`);
  return result;
}

if (isMainThread && process.env.SWAPGRAPH_RECORD_MODULES !== undefined) {
  const { register } = await import("node:module");
  register(import.meta.url, { data: { file: process.env.SWAPGRAPH_RECORD_MODULES } });
}
