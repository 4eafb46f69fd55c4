import { setImmediate as nextTurn } from "node:timers/promises";
import { expect, test } from "vitest";
import { collectGarbage } from "../../src/lib/collectGarbage.js";

test("behavior: an object nothing refers to is gone after one collection, without --expose-gc", async () => {
  expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  // A WeakRef's target stays alive to the end of the turn that made it: dropped in a later one.
  const ref = new WeakRef({ payload: new Array(1000).fill("x") });
  await nextTurn();
  collectGarbage();
  expect(ref.deref()).toBeUndefined();
  expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
});
