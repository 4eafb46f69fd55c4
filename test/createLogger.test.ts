import { describe, expect, test } from "vitest";
import { createLogger } from "../src/createLogger.js";

function capture(pretty: boolean) {
  const lines: string[] = [];
  const log = createLogger({ level: "info", pretty, write: (line) => lines.push(line) });
  return { log, lines };
}

describe("createLogger", () => {
  test("behavior: JSON lines by default off a terminal, human lines when pretty", () => {
    const json = capture(false);
    json.log.info({ network: "bsc" }, "backfill done");
    expect(JSON.parse(json.lines[0]!)).toMatchObject({ level: 30, network: "bsc", msg: "backfill done" });

    const human = capture(true);
    human.log.warn({ network: "bsc" }, "backfill done");
    expect(human.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: backfill done\n {4}network: "bsc"\n$/);
  });

  test("behavior: secrets are redacted from every part of a line, in both formats", () => {
    for (const pretty of [false, true]) {
      const { log, lines } = capture(pretty);
      const viem = new Error("HTTP request failed.\n\nURL: https://bsc.example/v3/KEY123\nVersion: viem@2");
      log.error(
        { err: String(viem), store: "postgres://swapgraph:PASSWORD9@db:5432/swapgraph" },
        "cannot reach https://eth.example/?apikey=KEY456",
      );
      const text = lines.join("");
      expect(text).not.toMatch(/KEY123|KEY456|PASSWORD9/);
      expect(text).toContain("https://bsc.example/***");
      expect(text).toContain("postgres://swapgraph:***@db:5432/swapgraph");
    }
  });

  test("args: the level is applied", () => {
    const lines: string[] = [];
    const log = createLogger({ level: "warn", pretty: false, write: (line) => lines.push(line) });
    log.info("hidden");
    log.warn("shown");
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["shown"]);
  });
});
