import type { NetworkStatus } from "../domain/market.js";
import type { NetworkName } from "../domain/types.js";
import {
  NetworkHaltedError,
  NetworkIndexingError,
  NetworkNotConfiguredError,
  type NotReadyError,
  StaleDataError,
} from "../errors.js";
import type { MarketState } from "./types.js";

/** Throws NotReadyError (503) unless the network is configured on this server. */
export function assertNetworkConfigured(reader: MarketState, network: NetworkName): void {
  if (!reader.networks().includes(network)) {
    throw new NetworkNotConfiguredError(network);
  }
}

/** Whole seconds since the indexed block last equalled the head, or undefined before it ever did. */
export function dataAgeSeconds(status: NetworkStatus, nowMs: number): number | undefined {
  if (status.syncedAt === undefined) return undefined;
  return Math.max(0, Math.floor((nowMs - status.syncedAt) / 1000));
}

/**
 * Why market queries on a network cannot be answered at `nowMs`, or undefined when they can:
 * never finished its backfill, halted, or data older than `maxStalenessSeconds`. A degraded
 * network (RPC outage) whose data is still fresh answers.
 */
export function findNotReadyReason(
  status: NetworkStatus,
  maxStalenessSeconds: number,
  nowMs: number,
): NotReadyError | undefined {
  const { network } = status;
  const reason = status.error;
  // The status text may name internals (RPC URLs, SQL): it goes to GraphQL `status`, not here.
  if (status.halted) {
    return new NetworkHaltedError(network, reason);
  }
  if (!status.ready) {
    return new NetworkIndexingError(network);
  }
  // No syncedAt on a ready network means its age is unknown (a writer that never recorded one):
  // readiness alone decides then, rather than refusing data that may well be current.
  const age = dataAgeSeconds(status, nowMs);
  if (age !== undefined && age > maxStalenessSeconds) {
    return new StaleDataError({
      network,
      ageSeconds: age,
      limitSeconds: maxStalenessSeconds,
      ...(reason === undefined ? {} : { reason }),
    });
  }
  return undefined;
}

/**
 * Throws NotReadyError (503) unless the network is configured, has finished its backfill, is not
 * halted and its data is not older than its `maxStalenessSeconds` at `nowMs` (default: now).
 */
export function assertNetworkReady(reader: MarketState, network: NetworkName, nowMs = Date.now()): void {
  assertNetworkConfigured(reader, network);
  const reason = findNotReadyReason(
    reader.status(network),
    reader.getConfig(network).maxStalenessSeconds,
    nowMs,
  );
  if (reason !== undefined) throw reason;
}
