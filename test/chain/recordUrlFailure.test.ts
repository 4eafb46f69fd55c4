import { describe, expect, test } from "vitest";
import { recordUrlFailure } from "../../src/chain/recordUrlFailure.js";
import type { UrlHealth } from "../../src/chain/rpcTypes.js";

const settings = { network: "bsc", cooldownMs: 100, maxRetryDelayMs: 30_000, log: undefined };

/** The cooldowns a URL gets through `times` connection failures in a row. */
function cooldowns(times: number): number[] {
  const state: UrlHealth = { label: "node", batchSize: 100, failures: 0, downUntil: 0, retryAfterUntil: 0 };
  return Array.from({ length: times }, () => {
    const before = Date.now();
    recordUrlFailure(state, "eth_blockNumber", new Error("fetch failed: ECONNREFUSED"), settings);
    const after = Date.now();
    // Rounded to the base: the clock may tick between the call and this read.
    return Math.round((state.downUntil - (before + after) / 2) / 100) * 100;
  });
}

describe("recordUrlFailure", () => {
  test("behavior: a failing URL's cooldown doubles from its base and stops at 12 times it", () => {
    // 0.1 s base: 0.1, 0.2, 0.4, 0.8 then 1.2 s however long the URL keeps failing (60 s at the
    // default 5 s base); a test's short base never leaves its URL down for a whole minute.
    expect(cooldowns(8)).toEqual([100, 200, 400, 800, 1_200, 1_200, 1_200, 1_200]);
  });
});
