import type { onRequestAsyncHookHandler } from "fastify";
import { AnswerDeadlineError, MethodNotAllowedError, SwapgraphError } from "../errors.js";
import { countEvent } from "../lib/countEvent.js";
import type { Metrics } from "./createMetrics.js";
import { GRAPHQL_PATH } from "./graphqlPath.js";

/**
 * The hook every request meets first: its timing per route, its answer deadline, and the
 * refusals that need no body (a method the path does not take, no Host, a too long URL).
 */
export function createRequestHook(options: {
  metrics: Metrics;
  answerDeadlineMs: number;
  maxUrlLength: number;
}): onRequestAsyncHookHandler {
  const { metrics, answerDeadlineMs, maxUrlLength } = options;
  return async (request, reply) => {
    const started = performance.now();
    const res = reply.raw;
    // No request waits forever: past the deadline with no answer begun, a JSON 503 (the error
    // handler words it). Whatever the handler does later finds the reply sent and is dropped.
    // The connection closes after it: the request may still be arriving (a slow body), and a
    // connection kept open would get a second final answer to it (node's 408 at requestTimeout)
    // and hold its slot meanwhile.
    const deadline = setTimeout(() => {
      if (res.headersSent || reply.sent) return;
      countEvent("http_refusals", { reason: "answer_deadline" });
      reply.header("Connection", "close");
      reply.send(new AnswerDeadlineError(answerDeadlineMs));
    }, answerDeadlineMs);
    // Timings per route: 'close' also comes when a streamed answer was cut off (client gone, or
    // destroyed on an error after the first byte), which counts as "aborted".
    res.once("close", () => {
      clearTimeout(deadline);
      const route = request.routeOptions.url ?? "other";
      metrics.observe(
        request.is404 ? "other" : route,
        res.writableFinished ? res.statusCode : "aborted",
        (performance.now() - started) / 1000,
      );
    });
    // Refused before the body is read: the method is wrong whatever the body says.
    const allow = (request.routeOptions.config as { allow?: string }).allow;
    if (allow !== undefined) throw new MethodNotAllowedError({ method: request.method, allow });
    const req = request.raw;
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      throw new SwapgraphError("BAD_REQUEST", "An HTTP/1.1 request needs a Host header.");
    }
    // GraphQL GET queries may be long: node's header size limit (16 KB) bounds them.
    if (request.url.length > maxUrlLength && request.routeOptions.url !== GRAPHQL_PATH) {
      throw new SwapgraphError(
        "BAD_REQUEST",
        `The request URL is too long: at most ${maxUrlLength} characters.`,
      );
    }
  };
}
