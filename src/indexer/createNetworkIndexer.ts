import { summarizeFailure } from "../chain/summarizeFailure.js";
import type { Address, Token } from "../domain/types.js";
import { BlockNotServedError, DeepReorgError, LostWriterLockError, SwapgraphError } from "../errors.js";
import { catchUp, type ProgressState } from "./catchUp.js";
import {
  createIndexerContext,
  type IndexerContext,
  type NetworkIndexerDeps,
} from "./createIndexerContext.js";
import { createTokenLookup } from "./createTokenLookup.js";
import { discoverToken } from "./discoverToken.js";
import { followHead, restAtHead } from "./followHead.js";
import { loadIndexerState } from "./loadIndexerState.js";
import { markSynced, refreshHead } from "./refreshHead.js";
import { seedNetwork } from "./seedNetwork.js";
import { watchHead } from "./watchHead.js";

/** One network's indexer. */
export interface NetworkIndexer {
  /** Runs until stop() or a fatal error (a reorg deeper than the window); resolves when it ends. */
  run(): Promise<void>;
  /** Stops after the range in flight; resolves when run() has returned. */
  stop(): Promise<void>;
  /**
   * Reads an unknown token's metadata and discovers its pools with the base tokens: pools found
   * are followed, and only then are the token and its pools stored. Lookups are bounded and
   * remembered (createTokenLookup).
   */
  resolveToken(address: Address): Promise<Token>;
}

/**
 * Creates the indexer of one network: backfills the window with eth_getLogs, follows the head,
 * detects reorgs by parentHash, decodes Swap and Sync of the configured factories' pairs into
 * trades valued in USD, and commits each range with its checkpoint in one store transaction;
 * the live views follow each commit.
 */
export function createNetworkIndexer(deps: NetworkIndexerDeps): NetworkIndexer {
  const ctx = createIndexerContext(deps);
  // Caller-named addresses: bounded, remembered, one read per address, a few at a time.
  const tokenLookups = createTokenLookup(
    ctx.network,
    (address) => discoverToken(ctx, address),
    deps.tokenLookup,
  );
  let running: Promise<void> | undefined;
  return {
    run() {
      running ??= loop(ctx);
      return running;
    },
    async stop() {
      ctx.stopping = true;
      ctx.sleeper.wake();
      await running?.catch(() => undefined);
    },
    async resolveToken(address) {
      const lower = address.toLowerCase() as Address;
      return ctx.tokens.get(lower) ?? tokenLookups.get(lower);
    },
  };
}

/** The indexer's loop: seed once, then catch up or follow the head, retrying failures with backoff. */
async function loop(ctx: IndexerContext): Promise<void> {
  const { network, views, log } = ctx;
  await loadIndexerState(ctx);
  let failures = 0;
  // Polls in a row that found no new block: the second one reads the tip for a reorg in place.
  let stillPolls = 0;
  const lastPrune = { at: 0 };
  const progress: ProgressState = { fromBlock: undefined, trades: 0, startedAt: performance.now() };
  while (!ctx.stopping) {
    try {
      ctx.checkpoint ??= await seedNetwork(ctx);
      await ctx.logs.prepare();
      progress.fromBlock ??= ctx.checkpoint.blockNumber;
      const head = await refreshHead(ctx);
      if (ctx.checkpoint.blockNumber >= head) {
        stillPolls++;
        await followHead(ctx, head, lastPrune, stillPolls >= 2);
      } else {
        stillPolls = 0;
        const watch = watchHead(ctx);
        try {
          await catchUp(ctx, head, progress);
        } finally {
          await watch.stop();
        }
        // Caught up: the next poll comes after the interval, not at once (a call saved per block).
        if (ctx.checkpoint.blockNumber >= head && !ctx.stopping) {
          await markSynced(ctx);
          await restAtHead(ctx, head, lastPrune);
        }
      }
      failures = 0;
    } catch (error) {
      if (error instanceof DeepReorgError) {
        log.error({ network, err: error.message }, "indexer halted");
        views.setStatus(network, { halted: true, error: error.message });
        throw error;
      }
      if (error instanceof LostWriterLockError) {
        log.warn({ network }, "lost the writer lock: another indexer writes this network now");
        throw error;
      }
      failures++;
      // Nothing read before the failure is trusted again: the head poll's blocks included.
      ctx.headBlocks.clear();
      const message = error instanceof SwapgraphError ? error.message : String(error);
      // A balancer's node behind the head: while the head answers and the data served is
      // fresh, the network is not degraded; the next turn, or the next node, has the block.
      if (error instanceof BlockNotServedError && dataIsFresh(ctx)) {
        log.info({ network, failures, err: message }, "a node is behind the head; reading again");
        if (!ctx.stopping) await ctx.sleeper.sleep(loopBackoffMs(ctx, failures));
        continue;
      }
      log.warn(
        {
          network,
          failures,
          err: message,
          ...(error instanceof SwapgraphError && error.details !== undefined
            ? { details: error.details }
            : {}),
        },
        "indexing failed; retrying",
      );
      // The API keeps serving what is indexed; the status says why it is not moving.
      // Public (GraphQL status): a few safe words, never the raw error (URL, request body).
      if (failures >= 3) views.setStatus(network, { error: summarizeFailure(error) });
      // The client already retried with backoff: the loop itself comes back within seconds of a recovery.
      if (!ctx.stopping) await ctx.sleeper.sleep(loopBackoffMs(ctx, failures));
    }
  }
}

/**
 * The loop's wait after its `failures`-th failure in a row: from twice the RPC retry delay
 * (0.5 s by default), doubling, at most 20 times that delay (5 s by default).
 */
function loopBackoffMs(ctx: IndexerContext, failures: number): number {
  const base = ctx.config.rpc.retryDelayMs ?? 250;
  return Math.min(20 * base, base * 2 ** Math.min(failures, 7));
}

/** True while the data served is within the staleness limit: the indexed block equalled the head lately. */
function dataIsFresh(ctx: IndexerContext): boolean {
  const { syncedAt } = ctx.views.status(ctx.network);
  return syncedAt !== undefined && Date.now() - syncedAt <= ctx.config.maxStalenessSeconds * 1000;
}
