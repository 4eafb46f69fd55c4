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

/** The network's status at `nowMs` as NetworkStatus shows it; null for a network not configured here. */
export function servingStatus(
  reader: MarketState,
  network: NetworkName,
  nowMs: number,
): ServingStatus | null {
  if (!reader.networks().includes(network)) return null;
  const status = reader.status(network);
  const config = reader.getConfig(network);
  return {
    ...answerFreshness(reader, network, nowMs),
    serving: findNotReadyReason(status, config.maxStalenessSeconds, nowMs) === undefined,
    pollIntervalMs: config.pollIntervalMs,
  };
}
