import type { NetworkConfig } from "../../config/types.js";
import type { NetworkStatus } from "../../domain/market.js";
import type { NetworkName } from "../../domain/types.js";
import { dataAgeSeconds, findNotReadyReason } from "../assertNetworkReady.js";
import type { MarketState } from "../types.js";

/** The freshness an answer carries (X-Indexed-Block, X-Data-Age), as NetworkStatus shows it. */
export interface AnswerFreshness {
  indexedBlock: string | null;
  dataAgeSeconds: number | null;
}

/** The network's indexed block and data age at `nowMs` (NetworkStatus.indexedBlock, dataAgeSeconds). */
export function answerFreshness(reader: MarketState, network: NetworkName, nowMs: number): AnswerFreshness {
  const status = reader.status(network);
  return {
    indexedBlock: status.indexedBlock?.toString() ?? null,
    dataAgeSeconds: dataAgeSeconds(status, nowMs) ?? null,
  };
}

/** What an answer kept per indexed block is checked against on each request (see createBlockAnswerer). */
export interface ServingStatus extends AnswerFreshness {
  /** Whether market answers are made now (ready, fresh, not halted): NetworkStatus.serving. */
  serving: boolean;
  /** How often the network's indexer polls (ms). */
  pollIntervalMs: number;
}

// The network's status at `nowMs` as NetworkStatus shows it.
function buildServingStatus(status: NetworkStatus, config: NetworkConfig, nowMs: number): ServingStatus {
  const age = dataAgeSeconds(status, nowMs);
  return {
    indexedBlock: status.indexedBlock?.toString() ?? null,
    dataAgeSeconds: age ?? null,
    serving: findNotReadyReason(status, config.maxStalenessSeconds, nowMs) === undefined,
    pollIntervalMs: config.pollIntervalMs,
  };
}

/** The network's status at `nowMs` as NetworkStatus shows it; null for a network not configured here. */
export function servingStatus(
  reader: MarketState,
  network: NetworkName,
  nowMs: number,
): ServingStatus | null {
  if (!reader.networks().includes(network)) return null;
  return buildServingStatus(reader.status(network), reader.getConfig(network), nowMs);
}

/**
 * The network's status as NetworkStatus shows it, for the request path (null for a network not
 * configured here): the same object while the network's status is the same
 * object and its data age the same whole second (all it is made of; the configuration is fixed),
 * so a request that finds it unchanged builds nothing.
 */
export function createServingStatusKeeper(
  reader: MarketState,
): (network: NetworkName, nowMs: number) => ServingStatus | null {
  const kept = new Map<
    NetworkName,
    { status: NetworkStatus; age: number | undefined; serving: ServingStatus }
  >();
  return (network, nowMs) => {
    if (!reader.networks().includes(network)) return null;
    const status = reader.status(network);
    const age = dataAgeSeconds(status, nowMs);
    const last = kept.get(network);
    if (last !== undefined && last.status === status && last.age === age) return last.serving;
    const serving = buildServingStatus(status, reader.getConfig(network), nowMs);
    kept.set(network, { status, age, serving });
    return serving;
  };
}
