import type { NetworkConfig } from "../config/types.js";
import type { NetworkStatus } from "../domain/market.js";

/** A network's status as reported; `lagBlocks` and `degraded` follow from it (and the clock). */
export type ReportedStatus = Omit<NetworkStatus, "lagBlocks" | "degraded">;

/** The status the API shows: the reported one with its lag, and degraded once the head has gone quiet at `nowMs`. */
function buildNetworkStatus(status: ReportedStatus, config: NetworkConfig, nowMs: number): NetworkStatus {
  // Degraded is a matter of time: a hanging RPC never reports a failure, its answers just stop.
  const quietMs = quietAfterMs(config);
  const quietFor = status.headCheckedAt === undefined ? 0 : nowMs - status.headCheckedAt;
  const silent = status.headCheckedAt !== undefined && quietFor > quietMs;
  const { indexedBlock, headBlock } = status;
  return {
    ...status,
    lagBlocks:
      indexedBlock === undefined || headBlock === undefined
        ? undefined
        : headBlock > indexedBlock
          ? headBlock - indexedBlock
          : 0n,
    degraded: silent || status.error !== undefined,
    // A node that accepts and never answers reports no failure until its deadline: say so now.
    error:
      status.error ??
      (silent ? `No answer for the chain head for ${Math.round(quietFor / 1000)} s.` : undefined),
  };
}

// How long the head may go unchecked before the network counts as degraded.
function quietAfterMs(config: NetworkConfig): number {
  return Math.max(3 * config.pollIntervalMs, config.rpc.timeoutMs);
}

/**
 * Until when (unix ms) buildNetworkStatus of `status` gives what it gives at `nowMs`: until the
 * head has gone quiet, or -Infinity once it has (the error then counts the seconds).
 */
function networkStatusStableUntil(status: ReportedStatus, config: NetworkConfig, nowMs: number): number {
  if (status.headCheckedAt === undefined) return Number.POSITIVE_INFINITY;
  const quietAtMs = status.headCheckedAt + quietAfterMs(config);
  return nowMs > quietAtMs ? Number.NEGATIVE_INFINITY : quietAtMs;
}

/**
 * buildNetworkStatus kept per network: the same object while the reported status is the same and
 * time has not changed it (every request reads the status, some more than once).
 */
export function createStatusKeeper(): (
  network: string,
  reported: ReportedStatus,
  config: NetworkConfig,
) => NetworkStatus {
  const built = new Map<string, { reported: ReportedStatus; status: NetworkStatus; untilMs: number }>();
  return (network, reported, config) => {
    const nowMs = Date.now();
    const kept = built.get(network);
    if (kept !== undefined && kept.reported === reported && nowMs <= kept.untilMs) return kept.status;
    const status = buildNetworkStatus(reported, config, nowMs);
    built.set(network, { reported, status, untilMs: networkStatusStableUntil(reported, config, nowMs) });
    return status;
  };
}
