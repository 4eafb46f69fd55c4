import type { FastifyReply } from "fastify";
import type { Logger } from "pino";
import { pullStream } from "./pullStream.js";

/**
 * Sends a list's pieces as they come. Bytes that went out before a later page failed leave a
 * truncated body (the socket is destroyed): the only honest signal left to the client; the log
 * says why. A client that reads nothing leaves the socket idle: it is cut off after `stallMs`
 * (it would hold a socket and a page forever). Either way the generator is returned: no page
 * is read after the client is gone.
 */
export function sendListStream(
  reply: FastifyReply,
  pieces: AsyncGenerator<Buffer>,
  options: { stallMs: number; logger: Logger | undefined; route?: string },
): FastifyReply {
  const { stallMs, logger } = options;
  const route = options.route ?? "/api/swaps_24h";
  async function* reported(): AsyncGenerator<Buffer> {
    try {
      yield* pieces;
    } catch (error) {
      logger?.error({ err: error, route }, "list failed after its first byte");
      throw error;
    }
  }
  const res = reply.raw;
  const gone = (reason: string) => logger?.debug({ route, reason }, "client gone");
  let stalled = false;
  res.setTimeout(stallMs, () => {
    stalled = true;
    gone(`The client read nothing for ${stallMs} ms.`);
    res.destroy();
  });
  // The stall timer ends with the answer (a listener is passed: in-process responses need one).
  res.once("finish", () => res.setTimeout(0, () => undefined));
  res.once("close", () => {
    if (!res.writableFinished && !stalled)
      gone("The client closed the connection before the answer was complete.");
  });
  return reply.send(pullStream(reported()));
}
