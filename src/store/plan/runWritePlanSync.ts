import type { WriteHandlers, WritePlan, WriteStep } from "./writeSteps.js";

/** Runs a plan's steps one after another through an engine's synchronous handlers (inside its transaction). */
export function runWritePlanSync<Context>(
  plan: WritePlan,
  handlers: WriteHandlers<Context>,
  context: Context,
): void {
  for (let next = plan.next(); next.done !== true; ) {
    const step = next.value;
    // The table pairs each handler with its step type; the lookup by a runtime type cannot show it.
    const handle = handlers[step.type] as (context: Context, step: WriteStep) => unknown;
    next = plan.next(handle(context, step));
  }
}
