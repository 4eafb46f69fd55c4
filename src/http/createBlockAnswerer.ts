import type { FastifyReply, FastifyRequest } from "fastify";
import type { NetworkName } from "../domain/types.js";
import { boundEventCount, countEvent } from "../lib/countEvent.js";
import {
  type AnswerFreshness,
  createServingStatusKeeper,
  type ServingStatus,
} from "../views/answers/answerFreshness.js";
import { type AnswerStore, blockFreshness } from "../views/answers/createAnswerStore.js";
import type { MarketReader } from "../views/types.js";
import { freshnessHeaders } from "./freshnessHeaders.js";
import {
  buildCachedJson,
  type CachedJson,
  type SendCachedJsonOptions,
  sendCachedJson,
} from "./sendCachedJson.js";

/** A REST answer made in the views: the public JSON and the freshness it was made at. */
interface RenderedAnswer {
  value: unknown;
  networkStatus: AnswerFreshness | null;
}

/** Answers requests from the answer of their network's indexed block (see createBlockAnswerer). */
export interface BlockAnswerer {
  /**
   * Sends the answer kept under `key` for the network's indexed block now, if there is one, and
   * says whether it did: synchronously, nothing made per request (the hot path of a route).
   */
  sendKept(
    request: FastifyRequest,
    reply: FastifyReply,
    network: NetworkName,
    key: string,
    /** The request's instant (unix ms). */
    nowMs: number,
  ): boolean;
  /** The kept answer, else the rendering (kept when it can be) sent. */
  answer(
    request: FastifyRequest,
    reply: FastifyReply,
    answer: {
      network: NetworkName;
      key: string;
      /** The request's instant (unix ms): what the status and the rendering are read at. */
      nowMs: number;
      render: () => Promise<RenderedAnswer>;
    },
  ): Promise<FastifyReply>;
}

const REST_ANSWER = { cache: "rest_answer" };

// Only when a network's status is missing (it is then refused anyway).
const DEFAULT_POLL_MS = 1_000;

/** What a network's status at a request means for its kept answers: made once per status and second. */
interface AnswerState {
  status: ServingStatus | null;
  /** The indexed block kept answers are valid for; null while the network does not serve. */
  block: string | null;
  pollIntervalMs: number;
  /** The freshness headers and Cache-Control every answer now carries. */
  send: SendCachedJsonOptions;
}

/**
 * Creates what /api/quote, /api/trade_volume_usd_7d and the listings answer with: the kept bytes
 * of `key` when they were made at the network's current indexed block, else the rendering (made in
 * src/views/answers), kept and sent. The views' status is read on every request: it gives this
 * request's X-Data-Age and whether the network serves now, so a halted or too stale network gets
 * its 503 from `render` rather than an old answer. Kept answers follow the block freshness rule
 * (blockFreshness). What a status means (its block, headers) is worked out once per status and
 * second, not per request.
 */
export function createBlockAnswerer(options: {
  reader: MarketReader;
  /** Where answers are kept (absent: none is). */
  answers?: AnswerStore;
}): BlockAnswerer {
  const { reader, answers } = options;
  const servingStatusOf = createServingStatusKeeper(reader);
  const states = new Map<NetworkName, AnswerState>();
  const countHit = boundEventCount("cache_hits", REST_ANSWER);

  function stateOf(network: NetworkName, nowMs: number): AnswerState {
    const status = servingStatusOf(network, nowMs);
    const last = states.get(network);
    if (last !== undefined && last.status === status) return last;
    const pollIntervalMs = status?.pollIntervalMs ?? DEFAULT_POLL_MS;
    const state: AnswerState = {
      status,
      block: status?.serving === true ? status.indexedBlock : null,
      pollIntervalMs,
      send: {
        headers: freshnessHeaders(status),
        cacheControl: blockFreshness(pollIntervalMs, nowMs).cacheControl,
      },
    };
    states.set(network, state);
    return state;
  }

  function sendKept(
    request: FastifyRequest,
    reply: FastifyReply,
    network: NetworkName,
    key: string,
    nowMs: number,
  ): boolean {
    if (answers === undefined) return false;
    const state = stateOf(network, nowMs);
    if (state.block === null) return false;
    const kept = answers.get<CachedJson>(key, state.block, nowMs);
    if (kept === undefined) return false;
    countHit();
    sendCachedJson(request, reply, kept, state.send);
    return true;
  }

  return {
    sendKept,
    async answer(request, reply, { network, key, nowMs, render }) {
      if (sendKept(request, reply, network, key, nowMs)) return reply;
      const { block, pollIntervalMs, send } = stateOf(network, nowMs);
      // Errors (400, 422, 503) are thrown here and never kept.
      const rendered = await render();
      const madeAt = rendered.networkStatus?.indexedBlock ?? null;
      const answer = buildCachedJson(rendered.value, `${network}-${madeAt ?? "none"}`);
      if (answers !== undefined && block !== null && madeAt !== null) {
        countEvent("cache_misses", REST_ANSWER);
        answers.set(key, madeAt, answer, blockFreshness(pollIntervalMs, nowMs).expiresAtMs);
      }
      return sendCachedJson(request, reply, answer, {
        headers: freshnessHeaders(rendered.networkStatus),
        cacheControl: send.cacheControl,
      });
    },
  };
}
