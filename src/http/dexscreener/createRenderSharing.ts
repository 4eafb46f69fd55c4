import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply } from "fastify";

// How long a request waits for another one's rendering of the same answer: a slow client of that
// request must not hold the rest (they render their own after it).
const SHARED_RENDER_WAIT_MS = 1_000;

/**
 * While one request makes an answer, the others asking for the same one wait for it (a bounded
 * wait) and are then answered from the kept copy, instead of all reading and rendering it at once.
 */
export interface RenderSharing {
  /** The wait for a rendering of `key` in progress (at most a second), or undefined when none is. */
  waitFor(key: string): Promise<void> | undefined;
  /** Makes this request the one rendering `key` until `finish()` or its reply closes. */
  claim(key: string, reply: FastifyReply): () => void;
}

/** Creates the sharing of renderings by key. */
export function createRenderSharing(): RenderSharing {
  const renderings = new Map<string, Promise<void>>();
  return {
    async waitFor(key) {
      const rendering = renderings.get(key);
      if (rendering !== undefined)
        await Promise.race([rendering, delay(SHARED_RENDER_WAIT_MS, undefined, { ref: false })]);
    },
    claim(key, reply) {
      if (renderings.has(key)) return () => undefined;
      let settle: () => void = () => undefined;
      const done = new Promise<void>((resolve) => (settle = resolve));
      renderings.set(key, done);
      const finish = () => {
        settle();
        if (renderings.get(key) === done) renderings.delete(key);
      };
      // However it ends (complete, too large to keep, an error answer, client gone), the wait ends.
      reply.raw.once("close", finish);
      return finish;
    },
  };
}
