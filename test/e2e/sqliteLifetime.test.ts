import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";

const CHURN = new URL("../support/churnSqliteStore.ts", import.meta.url).pathname;

describe("the SQLite store's native objects", () => {
  // On Node 24.19+ (and 26) a better-sqlite3 compiled from source aborts the process when the
  // collector frees one of its statements (openSqliteDatabase). Measured on Node 24.21.0 without
  // the keep-alive: the child aborts (134) within 2 s; with it: exit 0 in about 5 s.
  test("behavior: a process that opens, reads and closes stores while the collector runs ends with 0", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", CHURN, "40"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(output).not.toContain("Assertion failed");
    expect(code).toBe(0);
    expect(output).toContain("churned 40 stores");
  });
});
