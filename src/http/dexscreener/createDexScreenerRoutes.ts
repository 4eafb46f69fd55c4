import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import type { Address, NetworkName, PoolEvent } from "../../domain/types.js";
import { BadRequestError, NetworkIndexingError, SwapgraphError } from "../../errors.js";
import { buildDexScreenerAsset } from "../../views/answers/buildDexScreenerAsset.js";
import { type AnswerStore, blockFreshness } from "../../views/answers/createAnswerStore.js";
import { checksummed, createPoolEventRenderer } from "../../views/answers/createPoolEventRenderer.js";
import { assertNetworkReady, dataAgeSeconds } from "../../views/assertNetworkReady.js";
import type { MarketReader } from "../../views/types.js";
import { freshnessHeaders } from "../freshnessHeaders.js";
import { JSON_HEADERS } from "../jsonHeaders.js";
import { buildCachedJson, type CachedJson, sendCachedJson } from "../sendCachedJson.js";
import { sendListStream } from "../sendListStream.js";
import { MAX_EVENT_BLOCKS } from "./dexScreenerSchemas.js";

/** Events read from the store per page while an events answer is made. */
const EVENTS_PAGE_SIZE = 1_000;
/** The largest streamed events answer kept for its indexed block (bytes). */
const MAX_KEPT_EVENTS_BYTES = 8 * 1024 * 1024;

/** What the adapter's routes read and keep. */
export interface DexScreenerDeps {
  reader: MarketReader;
  answers: AnswerStore | undefined;
  /** How long a streamed answer waits for a client that reads nothing (ms). */
  stallTimeoutMs: number;
  logger: Logger | undefined;
}

/** The network's serving state: its indexed block and the freshness headers of this request. */
interface Served {
  block: bigint;
  /** What a kept answer is valid for: the indexed block, or the settled chain (see eventsHandler). */
  scope: string;
  headers: Record<string, string>;
  cacheControl: string;
  expiresAtMs: number;
}

function served(reader: MarketReader, network: NetworkName): Served {
  const nowMs = Date.now();
  assertNetworkReady(reader, network, nowMs);
  const status = reader.status(network);
  const block = status.indexedBlock;
  if (block === undefined) throw new NetworkIndexingError(network);
  const age = dataAgeSeconds(status, nowMs);
  const freshness = blockFreshness(reader.getConfig(network).pollIntervalMs, nowMs);
  return {
    block,
    scope: `${network}-${block}`,
    headers: freshnessHeaders({ indexedBlock: block.toString(), dataAgeSeconds: age ?? null }),
    ...freshness,
  };
}

/** The answer kept under `key` for the network's indexed block, if any. */
function keptAnswer(deps: DexScreenerDeps, key: string, state: Served): CachedJson | undefined {
  return deps.answers?.get<CachedJson>(key, state.scope, Date.now());
}

/** Keeps an answer made at the indexed block and sends it. */
function keepAndSend(
  deps: DexScreenerDeps,
  target: { request: FastifyRequest; reply: FastifyReply; key: string; state: Served },
  value: unknown,
): FastifyReply {
  const { request, reply, key, state } = target;
  const scope = state.scope;
  const answer = buildCachedJson(value, `dex-${scope}`);
  deps.answers?.set(key, scope, answer, state.expiresAtMs);
  return sendCachedJson(request, reply, answer, { headers: state.headers, cacheControl: state.cacheControl });
}

/** Sends the answer kept under `key` for the indexed block, else renders, keeps and sends it. */
async function answerCached(
  deps: DexScreenerDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  network: NetworkName,
  key: string,
  render: (state: Served) => Promise<unknown>,
): Promise<FastifyReply> {
  const state = served(deps.reader, network);
  const kept = keptAnswer(deps, key, state);
  if (kept !== undefined) {
    return sendCachedJson(request, reply, kept, { headers: state.headers, cacheControl: state.cacheControl });
  }
  return keepAndSend(deps, { request, reply, key, state }, await render(state));
}

/** GET /dexscreener/{network}/latest-block: the indexed block, whose events are all served. */
export function latestBlockHandler(deps: DexScreenerDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { network } = request.params as { network: NetworkName };
    return answerCached(deps, request, reply, network, `dex:latest\n${network}`, async ({ block }) => {
      const stored = await deps.reader.getStoredBlock(network, block);
      if (stored === undefined) throw new NetworkIndexingError(network);
      return { block: { blockNumber: Number(stored.number), blockTimestamp: stored.timestamp } };
    });
  };
}

/**
 * GET /dexscreener/{network}/asset?id=: a token of an indexed pool, with its totalSupply at the
 * indexed block (eth_call, read once per block); left out when the token or the RPC does not answer.
 */
export function assetHandler(deps: DexScreenerDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { network } = request.params as { network: NetworkName };
    const id = (request.query as { id: string }).id.toLowerCase() as Address;
    return answerCached(deps, request, reply, network, `dex:asset\n${network}\n${id}`, async ({ block }) => {
      const token = deps.reader.getToken(network, id);
      if (token === undefined || deps.reader.getPoolIndex(network).poolsOf(id).length === 0) {
        throw new SwapgraphError("NOT_FOUND", `No indexed pool on ${network} holds asset ${id}.`);
      }
      const supply = await deps.reader.readTotalSupply(network, id, block).catch((error: unknown) => {
        deps.logger?.warn({ err: error, network, token: id }, "totalSupply not read");
        return undefined;
      });
      return buildDexScreenerAsset(id, token, supply);
    });
  };
}

/** GET /dexscreener/{network}/pair?id=: an indexed pool. */
export function pairHandler(deps: DexScreenerDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { network } = request.params as { network: NetworkName };
    const id = (request.query as { id: string }).id.toLowerCase() as Address;
    return answerCached(deps, request, reply, network, `dex:pair\n${network}\n${id}`, async () => {
      const pool = deps.reader.getPoolIndex(network).get(id);
      if (pool === undefined)
        throw new SwapgraphError("NOT_FOUND", `Pair ${id} is not an indexed pool on ${network}.`);
      return {
        pair: {
          id: checksummed(pool.address),
          dexKey: pool.dex,
          asset0Id: checksummed(pool.token0),
          asset1Id: checksummed(pool.token1),
          // Fee in bps: a V3 pool's exact fee is in pips (hundredths of a bp).
          feeBps: pool.v3 === undefined ? pool.feeBps : pool.v3.fee / 100,
          // The factory log that created the pool (found at discovery); left out when not found.
          ...(pool.created === undefined
            ? {}
            : {
                createdAtBlockNumber: Number(pool.created.blockNumber),
                createdAtBlockTimestamp: pool.created.timestamp,
                createdAtTxnId: pool.created.txHash,
              }),
        },
      };
    });
  };
}

/** The block range of an events request, checked against the indexed block. */
function eventRange(query: { fromBlock: string; toBlock: string }, indexed: bigint): [bigint, bigint] {
  const from = BigInt(query.fromBlock);
  const to = BigInt(query.toBlock);
  if (from > to) throw new BadRequestError(`fromBlock ${from} is after toBlock ${to}.`);
  if (to > indexed) {
    throw new BadRequestError(
      `toBlock ${to} is after the latest indexed block ${indexed}; ask latest-block first.`,
    );
  }
  if (to - from >= BigInt(MAX_EVENT_BLOCKS)) {
    throw new BadRequestError(`toBlock: a range holds at most ${MAX_EVENT_BLOCKS} blocks; ask for less.`);
  }
  return [from, to];
}

/**
 * GET /dexscreener/{network}/events?fromBlock=&toBlock=: every swap, join and exit of the range
 * (inclusive), in chain order. An answer of one store page is sent whole, a longer one streamed
 * page by page (each read only once the client took the one before); either is kept (up to 8 MB)
 * for the indexed block, or for good when the range ends a finality depth below it: no reorg can
 * change those blocks any more (a deeper one halts the indexer).
 */
export function eventsHandler(deps: DexScreenerDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { network } = request.params as { network: NetworkName };
    const query = request.query as { fromBlock: string; toBlock: string };
    const now = served(deps.reader, network);
    const [fromBlock, toBlock] = eventRange(query, now.block);
    const settled = toBlock <= now.block - BigInt(deps.reader.getConfig(network).finalityDepth);
    const state = settled
      ? { ...now, scope: `${network}-settled`, expiresAtMs: Number.POSITIVE_INFINITY }
      : now;
    const key = `dex:events\n${network}\n${fromBlock}\n${toBlock}`;
    // Another request making this very answer: wait for its copy rather than make it again. No I/O
    // comes between the look and the making (find answers at once when no one makes it), so
    // requests arriving together make it once.
    const kept = await deps.answers?.find<CachedJson>(key, state.scope, Date.now());
    if (kept !== undefined) {
      return sendCachedJson(request, reply, kept, {
        headers: state.headers,
        cacheControl: state.cacheControl,
      });
    }
    const making = deps.answers?.make(key, state.scope, reply.raw);
    const render = createPoolEventRenderer(deps.reader, network);
    const read = (after?: PoolEvent) =>
      deps.reader.listPoolEvents(network, {
        fromBlock,
        toBlock,
        limit: EVENTS_PAGE_SIZE,
        ...(after === undefined
          ? {}
          : { after: { blockNumber: after.blockNumber, logIndex: after.logIndex } }),
      });
    const first = await read();
    if (first.length < EVENTS_PAGE_SIZE) {
      const body = Buffer.from(`{"events":[${render(first).join(",")}]}`);
      const sent = keepAndSend(deps, { request, reply, key, state }, body);
      making?.finish();
      return sent;
    }
    async function* pieces(): AsyncGenerator<Buffer> {
      let page = first;
      let separator = "";
      yield Buffer.from('{"events":[');
      for (;;) {
        const rows = render(page);
        if (rows.length > 0) yield Buffer.from(separator + rows.join(","));
        if (rows.length > 0) separator = ",";
        if (page.length < EVENTS_PAGE_SIZE) break;
        // Let other requests in between pages.
        await new Promise((resolve) => setImmediate(resolve));
        page = await read(page[page.length - 1]);
      }
      yield Buffer.from("]}");
    }
    // Kept too once complete, when not too large: the same range at the same block costs nothing more.
    const body =
      making === undefined
        ? pieces()
        : making.keepWhileSmall(pieces(), {
            maxBytes: MAX_KEPT_EVENTS_BYTES,
            expiresAtMs: state.expiresAtMs,
            build: (bytes) => buildCachedJson(bytes, `dex-${state.scope}`),
          });
    reply.headers({ ...state.headers, ...JSON_HEADERS, "Cache-Control": state.cacheControl });
    return sendListStream(reply, body, {
      stallMs: deps.stallTimeoutMs,
      logger: deps.logger,
      route: "/dexscreener/:network/events",
    });
  };
}
