import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import type { Address, NetworkName } from "../../domain/types.js";
import { type AnswerStore, blockFreshness } from "../../views/answers/createAnswerStore.js";
import {
  openDexScreenerEvents,
  readDexScreenerAsset,
  readDexScreenerLatestBlock,
  readDexScreenerPair,
} from "../../views/answers/readDexScreener.js";
import type { MarketReader } from "../../views/types.js";
import type { BlockAnswerer } from "../createBlockAnswerer.js";
import { freshnessHeaders } from "../freshnessHeaders.js";
import { JSON_HEADERS } from "../jsonHeaders.js";
import { buildCachedJson, type CachedJson, sendCachedJson } from "../sendCachedJson.js";
import { sendListStream } from "../sendListStream.js";

/** The largest streamed events answer kept for its indexed block (bytes). */
const MAX_KEPT_EVENTS_BYTES = 8 * 1024 * 1024;

/** What the adapter's routes read and keep. */
export interface DexScreenerDeps {
  reader: MarketReader;
  /** Answers latest-block, asset and pair from the answer of the indexed block (createBlockAnswerer). */
  answer: BlockAnswerer;
  answers: AnswerStore | undefined;
  /** How long a streamed answer waits for a client that reads nothing (ms). */
  stallTimeoutMs: number;
  logger: Logger | undefined;
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** The request's network and lower-cased id (asset, pair). */
function target(request: FastifyRequest): { network: NetworkName; id: Address } {
  const { network } = request.params as { network: NetworkName };
  const id = ((request.query as { id?: string }).id ?? "").toLowerCase() as Address;
  return { network, id };
}

/** GET /dexscreener/{network}/latest-block: the indexed block, whose events are all served. */
export function latestBlockHandler({ reader, answer }: DexScreenerDeps): Handler {
  return (request, reply) => {
    const { network } = target(request);
    const nowMs = Date.now();
    return answer.answer(request, reply, {
      network,
      key: `dex:latest\n${network}`,
      nowMs,
      render: () => readDexScreenerLatestBlock(reader, network, nowMs),
    });
  };
}

/** GET /dexscreener/{network}/asset?id=: a token of an indexed pool, with its totalSupply when read. */
export function assetHandler({ reader, answer, logger }: DexScreenerDeps): Handler {
  return (request, reply) => {
    const { network, id } = target(request);
    const nowMs = Date.now();
    const onSupplyError = (error: unknown) =>
      logger?.warn({ err: error, network, token: id }, "totalSupply not read");
    return answer.answer(request, reply, {
      network,
      key: `dex:asset\n${network}\n${id}`,
      nowMs,
      render: () => readDexScreenerAsset(reader, network, id, { nowMs, onSupplyError }),
    });
  };
}

/** GET /dexscreener/{network}/pair?id=: an indexed pool. */
export function pairHandler({ reader, answer }: DexScreenerDeps): Handler {
  return (request, reply) => {
    const { network, id } = target(request);
    const nowMs = Date.now();
    return answer.answer(request, reply, {
      network,
      key: `dex:pair\n${network}\n${id}`,
      nowMs,
      render: () => readDexScreenerPair(reader, network, id, nowMs),
    });
  };
}

/**
 * GET /dexscreener/{network}/events?fromBlock=&toBlock= (made by openDexScreenerEvents). An answer
 * of one store page is sent whole, a longer one streamed; either is kept (up to 8 MB) for the
 * indexed block, or for good when the range ends a finality depth below it: no reorg can change
 * those blocks any more (a deeper one halts the indexer).
 */
export function eventsHandler(deps: DexScreenerDeps): Handler {
  return async (request, reply) => {
    const { network } = target(request);
    const query = request.query as { fromBlock: string; toBlock: string };
    const nowMs = Date.now();
    const events = openDexScreenerEvents(deps.reader, network, { ...query, nowMs });
    const fresh = blockFreshness(deps.reader.getConfig(network).pollIntervalMs, nowMs);
    const { cacheControl } = fresh;
    const scope = events.settled ? `${network}-settled` : `${network}-${events.block}`;
    const expiresAtMs = events.settled ? Number.POSITIVE_INFINITY : fresh.expiresAtMs;
    const headers = freshnessHeaders(events.networkStatus);
    const key = `dex:events\n${network}\n${events.fromBlock}\n${events.toBlock}`;
    // Another request making this very answer: wait for its copy rather than make it again. No I/O
    // comes between the look and the making (find answers at once when no one makes it), so
    // requests arriving together make it once.
    const kept = await deps.answers?.find<CachedJson>(key, scope, nowMs);
    if (kept !== undefined) return sendCachedJson(request, reply, kept, { headers, cacheControl });
    const making = deps.answers?.make(key, scope, reply.raw);
    const build = (bytes: Buffer) => buildCachedJson(bytes, `dex-${scope}`);
    const made = await events.read();
    if ("whole" in made) {
      const answer = build(made.whole);
      deps.answers?.set(key, scope, answer, expiresAtMs);
      making?.finish();
      return sendCachedJson(request, reply, answer, { headers, cacheControl });
    }
    // Kept too once complete, when not too large: the same range at the same block costs nothing more.
    const body =
      making === undefined
        ? made.pieces
        : making.keepWhileSmall(made.pieces, { maxBytes: MAX_KEPT_EVENTS_BYTES, expiresAtMs, build });
    reply.headers({ ...headers, ...JSON_HEADERS, "Cache-Control": cacheControl });
    return sendListStream(reply, body, {
      stallMs: deps.stallTimeoutMs,
      logger: deps.logger,
      route: "/dexscreener/:network/events",
    });
  };
}
