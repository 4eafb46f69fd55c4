import type { FastifyReply, FastifyRequest } from "fastify";
import type { NetworkName } from "../domain/types.js";
import { countEvent } from "../lib/countEvent.js";
import { type AnswerFreshness, servingStatus } from "../views/answers/answerFreshness.js";
import { type AnswerStore, blockFreshness } from "../views/answers/createAnswerStore.js";
import type { MarketReader } from "../views/types.js";
import { freshnessHeaders } from "./freshnessHeaders.js";
import { buildCachedJson, type CachedJson, sendCachedJson } from "./sendCachedJson.js";

/** A REST answer made in the views: the public JSON and the freshness it was made at. */
interface RenderedAnswer {
  value: unknown;
  networkStatus: AnswerFreshness | null;
}

/** Answers one request from the answer of its network's indexed block (see createBlockAnswerer). */
export type BlockAnswerer = (
  request: FastifyRequest,
  reply: FastifyReply,
  answer: {
    network: NetworkName;
    key: string;
    /** The request's instant (unix ms): what the status and the rendering are read at. */
    nowMs: number;
    render: () => Promise<RenderedAnswer>;
  },
) => Promise<FastifyReply>;

const REST_ANSWER = { cache: "rest_answer" };

// Only when a network's status is missing (it is then refused anyway).
const DEFAULT_POLL_MS = 1_000;

/**
 * Creates what /api/quote, /api/trade_volume_usd_7d and the listings answer with: the kept bytes
 * of `key` when they were made at the network's current indexed block, else the rendering (made in
 * src/views/answers), kept and sent. The views' status is read on every request: it gives this
 * request's X-Data-Age and whether the network serves now, so a halted or too stale network gets
 * its 503 from `render` rather than an old answer. Kept answers follow the block freshness rule (blockFreshness).
 */
export function createBlockAnswerer(options: {
  reader: MarketReader;
  /** Where answers are kept (absent: none is). */
  answers?: AnswerStore;
}): BlockAnswerer {
  const { reader, answers } = options;
  return async (request, reply, { network, key, nowMs, render }) => {
    const networkStatus = servingStatus(reader, network, nowMs);
    const serving = networkStatus?.serving === true ? networkStatus : undefined;
    const block = serving?.indexedBlock ?? null;
    const freshness = blockFreshness(networkStatus?.pollIntervalMs ?? DEFAULT_POLL_MS, nowMs);
    if (answers !== undefined && block !== null) {
      const kept = answers.get<CachedJson>(key, block, nowMs);
      if (kept !== undefined) {
        countEvent("cache_hits", REST_ANSWER);
        return sendCachedJson(request, reply, kept, {
          headers: freshnessHeaders(networkStatus),
          cacheControl: freshness.cacheControl,
        });
      }
    }
    // Errors (400, 422, 503) are thrown here and never kept.
    const rendered = await render();
    const madeAt = rendered.networkStatus?.indexedBlock ?? null;
    const answer = buildCachedJson(rendered.value, `${network}-${madeAt ?? "none"}`);
    if (answers !== undefined && block !== null && madeAt !== null) {
      countEvent("cache_misses", REST_ANSWER);
      answers.set(key, madeAt, answer, freshness.expiresAtMs);
    }
    return sendCachedJson(request, reply, answer, {
      headers: freshnessHeaders(rendered.networkStatus),
      cacheControl: freshness.cacheControl,
    });
  };
}
