import type { AsyncWriteHandlers, WritePlan, WriteStep } from "./writeSteps.js";

/** Runs a plan's steps one after another through an engine's awaited handlers (inside its transaction). */
export async function runWritePlan<Context>(
  plan: WritePlan,
  handlers: AsyncWriteHandlers<Context>,
  context: Context,
): Promise<void> {
  for (let next = plan.next(); next.done !== true; ) {
    const step = next.value;
    // The table pairs each handler with its step type; the lookup by a runtime type cannot show it.
    const handle = handlers[step.type] as (context: Context, step: WriteStep) => Promise<unknown>;
    next = plan.next(await handle(context, step));
  }
}
