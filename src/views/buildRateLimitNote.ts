import type { NetworkStatus } from "../domain/market.js";

/**
 * What the provider's rate limit does to a network, in the words an operator reads ("rate
 * limited at ~8 calls/s, catching up"), or undefined while no URL of its indexer is limited.
 * A state, not an error: the network is not degraded for it while the head answers.
 */
export function buildRateLimitNote(
  status: Pick<NetworkStatus, "rpcRateLimit" | "lagBlocks" | "ready">,
): string | undefined {
  const perSecond = status.rpcRateLimit;
  if (perSecond === undefined) return undefined;
  const shown = perSecond >= 10 ? Math.round(perSecond) : Math.round(perSecond * 10) / 10;
  const behind = !status.ready || (status.lagBlocks !== undefined && status.lagBlocks > 0n);
  return `rate limited at ~${shown} calls/s, ${behind ? "catching up" : "following the head"}`;
}
