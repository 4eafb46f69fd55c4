import type { WritePlan, WriteStep } from "../../src/store/plan/writeSteps.js";

/** Runs a write plan without an engine: records every step and resumes each with `answer(step)`. */
export function drivePlan(
  plan: WritePlan,
  answer: (step: WriteStep) => unknown = () => undefined,
): WriteStep[] {
  const steps: WriteStep[] = [];
  for (let next = plan.next(); next.done !== true; ) {
    steps.push(next.value);
    next = plan.next(answer(next.value));
  }
  return steps;
}
