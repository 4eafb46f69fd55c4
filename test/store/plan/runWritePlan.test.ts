import { describe, expect, test } from "vitest";
import { runWritePlan } from "../../../src/store/plan/runWritePlan.js";
import { runWritePlanSync } from "../../../src/store/plan/runWritePlanSync.js";
import type {
  AsyncWriteHandlers,
  WriteHandlers,
  WritePlan,
  WriteStep,
} from "../../../src/store/plan/writeSteps.js";
import { hash } from "../../support/storeFixtures.js";

const checkpoint = { blockNumber: 7n, blockHash: hash(7n) };

/** Reads the last position, then sets the checkpoint only when the answer says the network is empty. */
function* plan(): WritePlan {
  const last = yield { type: "readLastPosition" };
  if (last === undefined) yield { type: "setCheckpoint", checkpoint };
  yield { type: "deleteBlocksAbove", blockNumber: 7n };
}

/** Handlers that log each step with its context; any step the test did not expect throws. */
function loggingHandlers(log: unknown[]): WriteHandlers<string> {
  return new Proxy({} as WriteHandlers<string>, {
    get: (_, type) => (context: string, step: WriteStep) => {
      log.push([context, step]);
      if (type === "deleteBlocksAbove" && context === "fail") throw new Error("disk full");
      return undefined;
    },
  });
}

describe("runWritePlan", () => {
  test("behavior: each step goes to its handler with the context, in order, and the answer resumes the plan", () => {
    const log: unknown[] = [];
    runWritePlanSync(plan(), loggingHandlers(log), "bsc");
    expect(log).toEqual([
      ["bsc", { type: "readLastPosition" }],
      ["bsc", { type: "setCheckpoint", checkpoint }],
      ["bsc", { type: "deleteBlocksAbove", blockNumber: 7n }],
    ]);
  });

  test("behavior: the awaited runner resumes the plan with the resolved answer", async () => {
    const log: unknown[] = [];
    const sync = loggingHandlers(log);
    const handlers = new Proxy({} as AsyncWriteHandlers<string>, {
      get: (_, type: keyof WriteHandlers<string>) => async (context: string, step: WriteStep) => {
        if (type === "readLastPosition") {
          log.push([context, step]);
          return { blockNumber: 1n, txIndex: 0, logIndex: 0 };
        }
        return (sync[type] as (context: string, step: WriteStep) => unknown)(context, step);
      },
    });
    await runWritePlan(plan(), handlers, "eth");
    // A position came back: the plan skipped the checkpoint.
    expect(log).toEqual([
      ["eth", { type: "readLastPosition" }],
      ["eth", { type: "deleteBlocksAbove", blockNumber: 7n }],
    ]);
  });

  test("error: a handler's error ends the run with that error", async () => {
    expect(() => runWritePlanSync(plan(), loggingHandlers([]), "fail")).toThrow("disk full");
    const handlers = new Proxy({} as AsyncWriteHandlers<string>, {
      get: () => async () => {
        throw new Error("connection lost");
      },
    });
    await expect(runWritePlan(plan(), handlers, "bsc")).rejects.toThrow("connection lost");
  });
});
