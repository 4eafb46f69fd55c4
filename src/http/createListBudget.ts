import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { onRequestHookHandler } from "fastify";
import { RateLimitedError } from "../errors.js";
import { type CostBucket, reserveCost } from "../graphql/plugins/reserveCost.js";
import { countEvent } from "../lib/countEvent.js";
import { createLruCache } from "../lib/createLruCache.js";

/** Options of createListBudget: the bytes of list answers one client may take. */
export interface ListBudgetOptions {
  /** Bytes of list answers a client may take per second, sustained. */
  bytesPerSecond: number;
  /** Bytes a client may take at once after a pause (the bucket's size). */
  burstBytes: number;
  /**
   * How long a refusal is held when its client asks again before its last Retry-After (ms,
   * default 1,000): a client that ignores it is slowed to one refusal a second per connection.
   */
  holdMs?: number;
  /** Clients remembered at most, least recently seen forgotten first (default 100,000). */
  maxClients?: number;
  /** Clock in ms (tests); default performance.now(). */
  now?: () => number;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route answers whole lists: charged to the client's list budget (createListBudget). */
    listBudget?: boolean;
  }
}

/** A route's config that puts its answers on the list budget. */
export const LIST_BUDGET_ROUTE = { listBudget: true };

// Where a list's response keeps what its charge needs (createListBudget's one 'close' listener).
const CHARGE = Symbol("swapgraph.listCharge");

type ChargedResponse = ServerResponse & { [CHARGE]?: { client: string; socket: Socket; before: number } };

interface ClientState {
  bucket: CostBucket;
  /** Until when the client's last refusal asked it to stay away (clock ms). */
  retryAtMs: number;
}

const MIB = 1024 * 1024;

/**
 * The request hook of the per-client list budget, which createHttpServer gives the routes whose
 * config says `listBudget` alone (other requests never meet it): those routes (whole lists:
 * /api/swaps_24h, a pool's trades, DEX Screener's events) charge the bytes their answer sent
 * to the client's token bucket, the same bucket (reserveCost) GraphQL's client budget charges
 * query cost to. A list's size is only known once it went out, so the charge comes after
 * the answer, and the bucket may go into debt: the client's next list request is a 429 with
 * Retry-After until its bucket refilled to zero. Any one answer is always sent whole. A client
 * that asks again before its Retry-After has the refusal held `holdMs` first, so that refusals
 * sent without pause cannot cost the server what the lists did. Clients are the rate limit's
 * (request.ip, which honours trustProxy).
 */
export function createListBudget(options: ListBudgetOptions): onRequestHookHandler {
  const { bytesPerSecond } = options;
  const limits = { ratePerSecond: bytesPerSecond, burst: Math.max(1, options.burstBytes) };
  const holdMs = options.holdMs ?? 1_000;
  const now = options.now ?? (() => performance.now());
  const clients = createLruCache<ClientState>({ maxEntries: options.maxClients ?? 100_000 });
  const rate = bytesPerSecond >= MIB ? `${Math.round(bytesPerSecond / MIB)} MiB` : `${bytesPerSecond} bytes`;

  function stateOf(client: string): ClientState {
    let state = clients.get(client);
    if (state === undefined) {
      state = { bucket: { level: limits.burst, atMs: now() }, retryAtMs: 0 };
      clients.set(client, state);
    }
    return state;
  }

  // The charge of an answer once it went out: one listener for all responses, what it needs on the response.
  function charge(this: ChargedResponse): void {
    const { client, socket, before } = this[CHARGE]!;
    const sent = socket.bytesWritten - before;
    // (In-process answers, Fastify's inject, have no socket bytes: nothing to charge.)
    if (sent > 0) reserveCost(stateOf(client).bucket, sent, now(), limits, Number.POSITIVE_INFINITY);
  }

  // Synchronous when the client is admitted (the common case: no promise per list request).
  return (request, reply, done) => {
    const client = request.ip;
    const state = stateOf(client);
    // Cost 0 is admitted once the bucket is out of debt; otherwise waitMs says when it will be.
    const admission = reserveCost(state.bucket, 0, now(), limits, 0);
    if (!admission.admitted) {
      const refuse = (heldMs: number) => {
        const retryAfterSeconds = Math.max(1, Math.ceil((admission.waitMs - heldMs) / 1000));
        state.retryAtMs = Math.max(state.retryAtMs, now() + retryAfterSeconds * 1000);
        countEvent("http_refusals", { reason: "list_budget" });
        done(
          new RateLimitedError(
            bytesPerSecond,
            retryAfterSeconds,
            `List budget exceeded: at most ${rate} of lists per second per client; retry after ${retryAfterSeconds} s.`,
          ),
        );
      };
      if (now() < state.retryAtMs && holdMs > 0) {
        const heldMs = Math.min(holdMs, admission.waitMs);
        setTimeout(() => refuse(heldMs), heldMs);
      } else {
        refuse(0);
      }
      return;
    }
    // The bytes that went out on the socket for this answer (headers and body as sent, gzip
    // included): a keep-alive connection answers its requests one after another.
    const socket = request.raw.socket;
    const res = reply.raw as ChargedResponse;
    res[CHARGE] = { client, socket, before: socket.bytesWritten };
    res.on("close", charge);
    done();
  };
}
