import type { FastifyReply, FastifyRequest } from "fastify";
import type { NetworkName } from "../domain/types.js";
import type { GraphqlSession } from "../graphql/createGraphqlExecutor.js";
import { countEvent } from "../lib/countEvent.js";
import type { AnswerStore } from "../views/answers/createAnswerStore.js";
import type { FreshnessData, RestOperations } from "./api/restOperations.js";
import { freshnessHeaders } from "./freshnessHeaders.js";
import { buildCachedJson, type CachedJson, sendCachedJson } from "./sendCachedJson.js";

/** A REST answer made from GraphQL: the public JSON and the freshness it was made at. */
interface RenderedAnswer {
  value: unknown;
  networkStatus: FreshnessData["networkStatus"];
}

/** Answers one request from the answer of its network's indexed block (see createBlockAnswerer). */
export type BlockAnswerer = (
  request: FastifyRequest,
  reply: FastifyReply,
  answer: {
    network: NetworkName;
    key: string;
    session: GraphqlSession;
    render: () => Promise<RenderedAnswer>;
  },
) => Promise<FastifyReply>;

const REST_ANSWER = { cache: "rest_answer" };

// Only when a network's status is missing (it is then refused anyway).
const DEFAULT_POLL_MS = 1_000;

/**
 * Creates what /api/quote and /api/trade_volume_usd_7d answer with: the kept bytes of `key` when
 * they were made at the network's current indexed block, else the rendering (GraphQL), kept and
 * sent. The status operation runs on every request: it gives this request's X-Data-Age and
 * whether the network serves now, so a halted or too stale network gets its 503 from `render`
 * rather than an old answer. Kept answers also expire after one poll interval: the pools and
 * aggregates can run ahead of the status' block until the next poll, and a reorg can bring the
 * same block number back with other contents.
 */
export function createBlockAnswerer(options: {
  operations: RestOperations;
  /** Where answers are kept (absent: none is). */
  answers?: AnswerStore;
}): BlockAnswerer {
  const { operations, answers } = options;
  // A client or shared cache may keep an answer about one poll (a new block can come no sooner),
  // and show it a few polls longer while it revalidates.
  // (GraphQL's networkStatus says how often the network's indexer polls.)
  const cacheControls = new Map<number, string>();
  function cacheControl(pollIntervalMs: number): string {
    let value = cacheControls.get(pollIntervalMs);
    if (value === undefined) {
      const maxAge = Math.max(1, Math.round(pollIntervalMs / 1000));
      value = `public, max-age=${maxAge}, stale-while-revalidate=${3 * maxAge}`;
      cacheControls.set(pollIntervalMs, value);
    }
    return value;
  }

  return async (request, reply, { network, key, session, render }) => {
    const { networkStatus } = await session.run<FreshnessData>(operations.status, { network });
    const serving = networkStatus?.serving === true ? networkStatus : undefined;
    const block = serving?.indexedBlock ?? null;
    const pollIntervalMs = networkStatus?.pollIntervalMs ?? DEFAULT_POLL_MS;
    if (answers !== undefined && block !== null) {
      const kept = answers.get<CachedJson>(key, block, session.nowMs);
      if (kept !== undefined) {
        countEvent("cache_hits", REST_ANSWER);
        return sendCachedJson(request, reply, kept, {
          headers: freshnessHeaders(networkStatus),
          cacheControl: cacheControl(pollIntervalMs),
        });
      }
    }
    // Errors (400, 422, 503) are thrown here and never kept.
    const rendered = await render();
    const madeAt = rendered.networkStatus?.indexedBlock ?? null;
    const answer = buildCachedJson(rendered.value, `${network}-${madeAt ?? "none"}`);
    if (answers !== undefined && block !== null && madeAt !== null) {
      countEvent("cache_misses", REST_ANSWER);
      answers.set(key, madeAt, answer, session.nowMs + pollIntervalMs);
    }
    return sendCachedJson(request, reply, answer, {
      headers: freshnessHeaders(rendered.networkStatus),
      cacheControl: cacheControl(pollIntervalMs),
    });
  };
}
