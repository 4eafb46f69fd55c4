import type { RpcTimings } from "./createRpcTimings.js";

// Keyed by the client, so that any PublicClient (tests hand in viem's own) simply has none.
const timingsByClient = new WeakMap<object, RpcTimings>();

/** The timing meter of a client made by createRpcClient (undefined for any other client). */
export function getRpcTimings(client: object): RpcTimings | undefined {
  return timingsByClient.get(client);
}

/** Ties a meter to its client (createRpcClient's). */
export function setRpcTimings(client: object, timings: RpcTimings): void {
  timingsByClient.set(client, timings);
}
