import { readRpcPace } from "../chain/readRpcPace.js";
import type { IndexerContext } from "./createIndexerContext.js";

/** A head watch started by watchHead: `stop` ends it and resolves once its poll in flight settled. */
export interface HeadWatch {
  stop(): Promise<void>;
}

/**
 * Polls the head while a catch-up runs (once its last answer is a third of the way to looking
 * silent), in the head lane, beside the range
 * reads: under a provider's rate limit one range can take many seconds, and the head (and the
 * status's "the RPC answers") must not wait for it. Only the status and the stored head move;
 * the catch-up takes the newer head after its range (catchUp).
 */
export function watchHead(ctx: IndexerContext): HeadWatch {
  const { network, views, config } = ctx;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  // A third of the quiet spell after which the status says the head went silent
  // (buildNetworkStatus): a range that ends sooner polls the head itself, at no extra call.
  const everyMs = Math.max(
    config.pollIntervalMs,
    Math.max(3 * config.pollIntervalMs, config.rpc.timeoutMs) / 3,
  );

  const poll = async () => {
    const status = views.status(network);
    if (Date.now() - (status.headCheckedAt ?? 0) >= everyMs) {
      const head = await ctx.headClient.getBlockNumber({ cacheTime: 0 });
      if (stopped) return;
      const checkedAt = Date.now();
      const known = views.status(network).headBlock;
      const headBlock = known !== undefined && known > head ? known : head;
      const syncedAt = views.status(network).syncedAt;
      views.setStatus(network, { headBlock, headCheckedAt: checkedAt, rpcRateLimit: readRpcPace(network) });
      await ctx.store.saveHead(network, { headBlock, checkedAt, syncedAt });
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      // A failed poll is the loop's business when its own calls fail too: here it only waits.
      inFlight = poll()
        .catch(() => undefined)
        .finally(schedule);
    }, everyMs);
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
