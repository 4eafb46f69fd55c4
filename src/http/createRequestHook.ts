import type { FastifyReply, onRequestHookHandler } from "fastify";
import { AnswerDeadlineError, MethodNotAllowedError, SwapgraphError } from "../errors.js";
import { countEvent } from "../lib/countEvent.js";
import type { Metrics } from "./createMetrics.js";
import { GRAPHQL_PATH } from "./graphqlPath.js";

/** A request waiting for its answer to begin, until `atMs`. */
interface Pending {
  reply: FastifyReply | undefined;
  atMs: number;
}

/**
 * The answer deadlines of all requests, on one timer: every request has the same deadline after
 * its arrival, so they expire in arrival order, and one queue with one timer armed for its oldest
 * entry replaces a timer per request. An answered request only lets go of its reply; its entry
 * leaves the queue when its time comes.
 */
function createDeadlines(deadlineMs: number, expire: (reply: FastifyReply) => void) {
  const queue: Pending[] = [];
  let head = 0;
  let timer: NodeJS.Timeout | undefined;

  function sweep(): void {
    timer = undefined;
    const nowMs = performance.now();
    while (head < queue.length && queue[head]!.atMs <= nowMs) {
      const { reply } = queue[head]!;
      queue[head++] = undefined as never;
      if (reply !== undefined) expire(reply);
    }
    // Compact now and then: the queue holds about one deadline's worth of requests.
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    if (head < queue.length) arm(queue[head]!.atMs - nowMs);
  }

  function arm(inMs: number): void {
    timer = setTimeout(sweep, Math.max(0, inMs));
    // The deadlines of requests do not hold the process open: their connections do.
    timer.unref();
  }

  return {
    add(reply: FastifyReply, startedMs: number): Pending {
      const pending = { reply, atMs: startedMs + deadlineMs };
      queue.push(pending);
      if (timer === undefined) arm(deadlineMs);
      return pending;
    },
  };
}

/**
 * The hook every request meets first: its timing per route, its answer deadline, and the
 * refusals that need no body (a method the path does not take, no Host, a too long URL). Written
 * for the request path: synchronous, Fastify's route options read once (each read builds them),
 * and the deadlines of all requests on one timer.
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
  return (request, reply, done) => {
    const started = performance.now();
    const res = reply.raw;
    const { url, config } = request.routeOptions;
    const pending = deadlines.add(reply, started);
    // Timings per route: 'close' also comes when a streamed answer was cut off (client gone, or
    // destroyed on an error after the first byte), which counts as "aborted".
    res.once("close", () => {
      pending.reply = undefined;
      metrics.observe(
        request.is404 ? "other" : (url ?? "other"),
        res.writableFinished ? res.statusCode : "aborted",
        (performance.now() - started) / 1000,
      );
    });
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
