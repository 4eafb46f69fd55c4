import type { ServerResponse } from "node:http";
import type { FastifyReply, onRequestHookHandler } from "fastify";
import { AnswerDeadlineError, MethodNotAllowedError, SwapgraphError } from "../errors.js";
import { countEvent } from "../lib/countEvent.js";
import type { Metrics } from "../metrics/createMetrics.js";
import { answerPreflight, setCorsHeaders } from "./answerCors.js";
import { GRAPHQL_PATH } from "./graphqlPath.js";

/** A request on its way to its answer: its deadline, and what its timing is recorded under. */
interface Pending {
  reply: FastifyReply;
  /** Its answer deadline (performance.now() ms). */
  atMs: number;
  startedMs: number;
  /** Its route, as the metrics label it. */
  route: string;
  /** Its neighbours among the requests not closed yet, in arrival order. */
  older: Pending | undefined;
  newer: Pending | undefined;
  /** Closed (answered, or the client gone) or expired: out of the list. */
  done: boolean;
}

// Where a response keeps its request's Pending, for the one 'close' listener all responses share.
const PENDING = Symbol("swapgraph.pending");

type TimedResponse = ServerResponse & { [PENDING]?: Pending };

/**
 * The answer deadlines of all requests, on one timer: every request has the same deadline after
 * its arrival, so they expire in arrival order. The requests not closed yet are a list in that
 * order (a closed one leaves it at once, so the list holds only the requests in flight, and
 * nothing of an answered request outlives it), with one timer armed for the oldest.
 */
function createDeadlines(deadlineMs: number, expire: (reply: FastifyReply) => void) {
  let oldest: Pending | undefined;
  let newest: Pending | undefined;
  let timer: NodeJS.Timeout | undefined;

  function remove(pending: Pending): void {
    if (pending.done) return;
    pending.done = true;
    if (pending.older === undefined) oldest = pending.newer;
    else pending.older.newer = pending.newer;
    if (pending.newer === undefined) newest = pending.older;
    else pending.newer.older = pending.older;
    pending.older = undefined;
    pending.newer = undefined;
  }

  function sweep(): void {
    timer = undefined;
    const nowMs = performance.now();
    while (oldest !== undefined && oldest.atMs <= nowMs) {
      const { reply } = oldest;
      remove(oldest);
      expire(reply);
    }
    if (oldest !== undefined) arm(oldest.atMs - nowMs);
  }

  function arm(inMs: number): void {
    timer = setTimeout(sweep, Math.max(0, inMs));
    // The deadlines of requests do not hold the process open: their connections do.
    timer.unref();
  }

  return {
    add(pending: Pending): void {
      pending.older = newest;
      if (newest === undefined) oldest = pending;
      else newest.newer = pending;
      newest = pending;
      if (timer === undefined) arm(deadlineMs);
    },
    remove,
  };
}

/**
 * The hook every request meets first: the CORS headers (and a preflight's whole answer), its
 * timing per route, its answer deadline, and the refusals that need no body (a method the path
 * does not take, no Host, a too long URL). Written for the request path: synchronous, Fastify's
 * route options read once (each read builds them), the deadlines of all requests on one timer,
 * and one 'close' listener shared by all responses (no closure per request).
 */
export function createRequestHook(options: {
  metrics: Metrics;
  answerDeadlineMs: number;
  maxUrlLength: number;
}): onRequestHookHandler {
  const { metrics, answerDeadlineMs, maxUrlLength } = options;
  // No request waits forever: past the deadline with no answer begun, a JSON 503 (the error
  // handler words it). Whatever the handler does later finds the reply sent and is dropped.
  // The connection closes after it: the request may still be arriving (a slow body), and a
  // connection kept open would get a second final answer to it (node's 408 at requestTimeout)
  // and hold its slot meanwhile.
  const deadlines = createDeadlines(answerDeadlineMs, (reply) => {
    if (reply.raw.headersSent || reply.sent) return;
    countEvent("http_refusals", { reason: "answer_deadline" });
    reply.header("Connection", "close");
    reply.send(new AnswerDeadlineError(answerDeadlineMs));
  });
  // Timings per route: 'close' also comes when a streamed answer was cut off (client gone, or
  // destroyed on an error after the first byte), which counts as "aborted".
  function recordTiming(this: TimedResponse): void {
    const pending = this[PENDING]!;
    deadlines.remove(pending);
    metrics.observe(
      pending.route,
      this.writableFinished ? this.statusCode : "aborted",
      (performance.now() - pending.startedMs) / 1000,
    );
  }
  return (request, reply, done) => {
    setCorsHeaders(reply);
    const { url, config } = request.routeOptions;
    if (request.method === "OPTIONS") {
      answerPreflight(request, reply, config.cors?.methods);
      return;
    }
    const startedMs = performance.now();
    const pending: Pending = {
      reply,
      atMs: startedMs + answerDeadlineMs,
      startedMs,
      route: request.is404 ? "other" : (url ?? "other"),
      older: undefined,
      newer: undefined,
      done: false,
    };
    deadlines.add(pending);
    const res = reply.raw as TimedResponse;
    res[PENDING] = pending;
    res.on("close", recordTiming);
    // Refused before the body is read: the method is wrong whatever the body says.
    const allow = (config as { allow?: string }).allow;
    if (allow !== undefined) {
      done(new MethodNotAllowedError({ method: request.method, allow }));
      return;
    }
    const req = request.raw;
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      done(new SwapgraphError("BAD_REQUEST", "An HTTP/1.1 request needs a Host header."));
      return;
    }
    // GraphQL GET queries may be long: node's header size limit (16 KB) bounds them.
    if (request.url.length > maxUrlLength && url !== GRAPHQL_PATH) {
      done(
        new SwapgraphError("BAD_REQUEST", `The request URL is too long: at most ${maxUrlLength} characters.`),
      );
      return;
    }
    done();
  };
}
