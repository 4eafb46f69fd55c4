import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply } from "fastify";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import { buildCachedJson, type CachedJson } from "../sendCachedJson.js";

/** One shareable whole-window list: its key, and the block and second it is a function of. */
export interface SharedList {
  key: string;
  network: string;
  block: string;
  /** Unix seconds of the request (the window's end). */
  now: number;
}

/**
 * The whole-window /api/swaps_24h answers shared within their block and second: kept in the
 * answer store, and, while one request renders a list, the others of that list wait for it.
 */
export interface ListSharing {
  /** The kept copy of `list`, or the one a request rendering it now finishes within the wait. */
  find(list: SharedList, options: { waitForRendering: boolean }): Promise<CachedJson | undefined>;
  /** Makes this request the one rendering `list` (unless another is): the others wait for it. */
  claim(list: SharedList, reply: FastifyReply): void;
  /** Passes `source` on, keeping its pieces while small enough; a complete list is then shared. */
  keepWhileSmall(list: SharedList, source: AsyncGenerator<Buffer>): AsyncGenerator<Buffer>;
}

// How long a request waits for another one's rendering of the same shareable list.
const SHARED_RENDER_WAIT_MS = 1_000;

const sleep = (ms: number) => delay(ms, undefined, { ref: false });

/** Creates the sharing of lists up to `maxChars` bytes, kept in `answers`. */
export function createListSharing(options: {
  answers: AnswerStore | undefined;
  maxChars: number;
}): ListSharing {
  const { answers, maxChars } = options;
  // Shareable lists being rendered now, by key: the requests that miss the kept copy wait here.
  const renderings = new Map<
    string,
    { done: Promise<CachedJson | undefined>; settle: (entry?: CachedJson) => void }
  >();
  return {
    async find(list, { waitForRendering }) {
      const kept = answers?.get<CachedJson>(list.key, list.block, list.now * 1000);
      if (kept !== undefined || !waitForRendering) return kept;
      // Another request of this block and second is rendering the list: wait for its copy rather
      // than render it again (at the start of every second, every connection would otherwise
      // miss at once). The wait is bounded: a slow client of that request must not hold the rest.
      const rendering = renderings.get(list.key);
      if (rendering === undefined) return undefined;
      return (await Promise.race([rendering.done, sleep(SHARED_RENDER_WAIT_MS)])) ?? undefined;
    },
    claim(list, reply) {
      if (renderings.has(list.key)) return;
      let settle: (entry?: CachedJson) => void = () => undefined;
      const done = new Promise<CachedJson | undefined>((resolve) => (settle = resolve));
      const mine = { done, settle };
      renderings.set(list.key, mine);
      // However it ends (complete, too large to keep, an error answer, client gone), the wait ends.
      reply.raw.once("close", () => {
        settle(undefined);
        if (renderings.get(list.key) === mine) renderings.delete(list.key);
      });
    },
    async *keepWhileSmall(list, source) {
      let kept: Buffer[] | undefined = [];
      let keptLength = 0;
      for await (const piece of source) {
        if (kept !== undefined) {
          keptLength += piece.length;
          if (keptLength > maxChars) kept = undefined;
          else kept.push(piece);
        }
        yield piece;
      }
      if (kept !== undefined) {
        const entry = buildCachedJson(Buffer.concat(kept), `${list.network}-${list.block}`);
        answers?.set(list.key, list.block, entry, (list.now + 1) * 1000);
        renderings.get(list.key)?.settle(entry);
      }
    },
  };
}
