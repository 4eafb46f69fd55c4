import type { NetworkName } from "../../domain/types.js";
import { dataAgeSeconds } from "../assertNetworkReady.js";
import type { MarketReader } from "../types.js";

/** The freshness an answer carries (X-Indexed-Block, X-Data-Age), as NetworkStatus shows it. */
export interface AnswerFreshness {
  indexedBlock: string | null;
  dataAgeSeconds: number | null;
}

/** The network's indexed block and data age at `nowMs` (NetworkStatus.indexedBlock, dataAgeSeconds). */
export function answerFreshness(reader: MarketReader, network: NetworkName, nowMs: number): AnswerFreshness {
  const status = reader.status(network);
  return {
    indexedBlock: status.indexedBlock?.toString() ?? null,
    dataAgeSeconds: dataAgeSeconds(status, nowMs) ?? null,
  };
}
