import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { ClientBudgetError } from "../../errors.js";
import { toGraphqlError } from "../errors/toGraphqlError.js";
import type { ClientBudget } from "./createClientBudget.js";
import { getOperationCost } from "./getOperationCost.js";

/**
 * The client of in-process calls (`yoga.fetch`) and of anything without a client key: one budget for all.
 * @internal exported for tests, which name the shared budget with it.
 */
export const SHARED_CLIENT = "shared";

// The HTTP edge puts the client's address (the rate limit's key) into yoga's server context.
function clientOf(context: unknown): string {
  const key = (context as { clientKey?: unknown } | null | undefined)?.clientKey;
  return typeof key === "string" && key !== "" ? key : SHARED_CLIENT;
}

// A result set here skips the plugins after this one, yoga's error masking included: the refusal
// goes through the one formatter (a 429 with Retry-After) on its own.
function refusal(error: ClientBudgetError) {
  return { errors: [toGraphqlError(error)] };
}

/**
 * Charges each operation's cost (the price the cost limit computed, getOperationCost) to its
 * client's budget before it executes: it waits for the budget and a free slot, or is refused
 * with a GraphQL 429 (RATE_LIMITED, Retry-After). The slot is given back when the result is
 * done: a result, an error, a thrown execution, or the end of an incremental result. A
 * subscription is charged once when it starts and holds no slot: its events are the server's
 * pace, not the client's.
 */
export function useClientBudget(budget: ClientBudget): Plugin {
  return {
    async onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      let release: () => void;
      try {
        release = await budget.admit(clientOf(args.contextValue), getOperationCost(args) ?? 0);
      } catch (error) {
        if (!(error instanceof ClientBudgetError)) throw error;
        setResultAndStopExecution(refusal(error));
        return;
      }
      // onExecuteDone does not run when execution throws; the slot must come back then too.
      setExecuteFn(async (executionArgs) => {
        try {
          return await executeFn(executionArgs);
        } catch (error) {
          release();
          throw error;
        }
      });
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result)) return { onEnd: release };
          release();
          return undefined;
        },
      };
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      try {
        await budget.admit(clientOf(args.contextValue), getOperationCost(args) ?? 0, { holdSlot: false });
      } catch (error) {
        if (!(error instanceof ClientBudgetError)) throw error;
        setResultAndStopExecution(refusal(error));
      }
    },
  };
}
