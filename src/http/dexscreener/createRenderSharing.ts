import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply } from "fastify";

// How long a request waits for another one's rendering of the same answer to move on: a rendering
// whose client reads nothing must not hold the rest (they make their own after it).
const SHARED_RENDER_STALL_MS = 1_000;

/** The request making an answer: it tells its waiters when it moves on and when it is done. */
interface Rendering {
  /** A piece was made: the waiters wait on. */
  progress(): void;
  /** Made (kept or not), failed, or the client left: the waiters stop waiting. */
  finish(): void;
}

/**
 * While one request makes an answer, the others asking for the same one wait for it (as long as
 * it moves on) and are then answered from the kept copy, instead of all reading and rendering it.
 */
export interface RenderSharing {
  /** The wait for a rendering of `key` in progress, or undefined when none is. */
  waitFor(key: string): Promise<void> | undefined;
  /** Makes this request the one rendering `key` (unless another is) until it finishes or its reply closes. */
  claim(key: string, reply: FastifyReply): Rendering;
}

interface Entry {
  done: Promise<void>;
  lastProgressMs: number;
}

const NOTHING: Rendering = { progress: () => undefined, finish: () => undefined };

/** Creates the sharing of renderings by key. */
export function createRenderSharing(options: { stallMs?: number } = {}): RenderSharing {
  const stallMs = options.stallMs ?? SHARED_RENDER_STALL_MS;
  const renderings = new Map<string, Entry>();
  async function wait(entry: Entry): Promise<void> {
    let finished = false;
    void entry.done.then(() => (finished = true));
    while (!finished) {
      const left = entry.lastProgressMs + stallMs - Date.now();
      if (left <= 0) return;
      await Promise.race([entry.done, delay(left, undefined, { ref: false })]);
    }
  }
  return {
    waitFor(key) {
      const entry = renderings.get(key);
      return entry === undefined ? undefined : wait(entry);
    },
    claim(key, reply) {
      if (renderings.has(key)) return NOTHING;
      let settle: () => void = () => undefined;
      const entry: Entry = {
        done: new Promise<void>((resolve) => (settle = resolve)),
        lastProgressMs: Date.now(),
      };
      renderings.set(key, entry);
      const finish = () => {
        settle();
        if (renderings.get(key) === entry) renderings.delete(key);
      };
      // However it ends (complete, too large to keep, an error answer, client gone), the wait ends.
      reply.raw.once("close", finish);
      return { progress: () => (entry.lastProgressMs = Date.now()), finish };
    },
  };
}
