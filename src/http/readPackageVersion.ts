import { readFileSync } from "node:fs";

/** The version in package.json (dist/ mirrors src/, so the path holds for both). */
export function readPackageVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}
