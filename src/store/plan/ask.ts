import type { WriteAnswers, WriteStep } from "./writeSteps.js";

/** Yields a read step and returns the engine's answer, typed by the step (the one place a plan trusts an answer's type). */
export function* ask<S extends WriteStep & { type: keyof WriteAnswers }>(
  step: S,
): Generator<WriteStep, WriteAnswers[S["type"]], unknown> {
  return (yield step) as WriteAnswers[S["type"]];
}
