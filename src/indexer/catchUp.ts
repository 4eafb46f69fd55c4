import { getRpcTimings } from "../chain/getRpcTimings.js";
import type { Address } from "../domain/types.js";
import { assertNever } from "../lib/assertNever.js";
import { applyRange } from "./applyRange.js";
import { classifyPairs } from "./classifyPairs.js";
import type { IndexerContext } from "./createIndexerContext.js";
import { type RangeRead, readRange, truncateRange } from "./readRange.js";
import { refreshHead } from "./refreshHead.js";
import { rollBackReorg } from "./rollBackReorg.js";

/** Aim of one range read: bounds the memory of a range on dense chains (BSC: ~2,000 logs a block). */
const TARGET_LOGS_PER_RANGE = 5_000;
// Ranges read ahead of the one being applied: the node works on them while this process decodes
// and commits (at most this many ranges of TARGET_LOGS_PER_RANGE logs in memory besides it).
const READS_IN_FLIGHT = 3;

/** What this run of the indexer has done, for its progress reports. */
export interface ProgressState {
  fromBlock: bigint | undefined;
  trades: number;
  startedAt: number;
}

/** A range read in flight, with the pool epoch it was started in. */
interface PendingRead {
  read: Promise<RangeRead>;
  epoch: number;
  /** Last block of the range (the next read starts after it). */
  to: bigint;
}

/** Step 1: read a range (logs, then senders and the headers needed), sized to the chain's density. */
function startRead(ctx: IndexerContext, from: bigint, head: bigint): PendingRead {
  const span = BigInt(ctx.span);
  const to = from + span - 1n < head ? from + span - 1n : head;
  const epoch = ctx.pairsEpoch;
  const read = readRange(
    {
      client: ctx.client,
      readLogs: ctx.logs.read,
      bloomNamesLogs: ctx.logs.bloomNamesLogs,
      wrapped: ctx.wrapped,
      senderCosts: ctx.senderCosts,
      acceptPairs: async (
        addresses: ReadonlyMap<Address, "v2" | "v3">,
        firstSeen: ReadonlyMap<Address, bigint>,
      ) => {
        await classifyPairs(ctx, addresses, firstSeen);
        return new Set([...addresses.keys()].filter((address) => ctx.pairs.has(address)));
      },
      events: ctx.events,
      unfinalizedFrom: head - BigInt(ctx.config.finalityDepth),
      known: ctx.headBlocks,
    },
    from,
    to,
  );
  // A read that is dropped (reorg, stop) must not surface as an unhandled rejection.
  read.catch(() => undefined);
  return { read, epoch, to };
}

/** The next range's span from this one's density: about TARGET_LOGS_PER_RANGE logs, at most doubling. */
function fitSpan(ctx: IndexerContext, read: RangeRead): void {
  const seen = read.blocksRead;
  const costs = ctx.senderCosts;
  if (seen.blocks > 0) {
    // A running average that follows the chain's load within a few dozen blocks.
    const weight = Math.min(1, seen.blocks / 32);
    costs.transactionsPerBlock =
      costs.transactionsPerBlock * (1 - weight) + (seen.transactions / seen.blocks) * weight;
  }
  // The "time" model's input follows what the client measured up to this range.
  if (costs.model === "time") costs.time = getRpcTimings(ctx.client)?.sample();
  const blocks = Number(read.to - read.from + 1n);
  const fit = Math.floor((blocks * TARGET_LOGS_PER_RANGE) / Math.max(1, read.logCount));
  // The first measurement may grow the guess 16-fold (4 -> 64 blocks); later ones double at most.
  ctx.span = Math.max(1, Math.min(ctx.config.maxLogRange, fit, ctx.span * (ctx.spanFitted ? 2 : 16)));
  ctx.spanFitted = true;
}

/** Pipelined backfill up to `head`: the next range is read while the current one is applied. */
export async function catchUp(
  ctx: IndexerContext,
  startHead: bigint,
  progress: ProgressState,
): Promise<void> {
  const { network, views, config, log } = ctx;
  let head = startHead;
  // Reads in flight, in block order: while one range is applied the next ones are read.
  const queue: PendingRead[] = [];
  // The last block a read was started for. Not the queue's tail: the range being applied has
  // left the queue but not yet moved the checkpoint, and must not be read a second time (the
  // copy would not link to the new checkpoint and look like a reorg).
  let readTo = ctx.checkpoint!.blockNumber;
  const fill = (): void => {
    // Until one range has measured this chain's density, one read: a pipeline of guesses
    // would spend a call on each.
    while (queue.length < (ctx.spanFitted ? READS_IN_FLIGHT : 1)) {
      if (readTo + 1n > head) return;
      const pending = startRead(ctx, readTo + 1n, head);
      queue.push(pending);
      readTo = pending.to;
    }
  };
  fill();
  while (queue.length > 0 && !ctx.stopping) {
    const { read, epoch } = queue.shift()!;
    const data: RangeRead = await read;
    fitSpan(ctx, data);
    // Logs a block's bloom names that no read produced (a log index behind the head): commit
    // what comes before it and read on from there at the next poll. Near the head only: no
    // provider's index lags by the finality depth, so an older doubt is a bloom's false positive.
    const doubt = data.unconfirmed.find((number) => number > head - BigInt(config.finalityDepth));
    if (doubt !== undefined) {
      ctx.headBlocks.clear();
      if (doubt > data.from && data.headers.has(doubt - 1n)) {
        await ctx.exclusive(() => applyRange(ctx, truncateRange(data, doubt - 1n), epoch, head));
      }
      log.info(
        { network, block: doubt, from: data.from, to: data.to },
        "logs of a block are not served yet (its bloom names Swap or Sync); reading it again",
      );
      return;
    }
    fill();
    const outcome = await ctx.exclusive(() => applyRange(ctx, data, epoch, head));
    // A range that did not commit may have met a block the head poll read before a reorg: the
    // next read asks the node again.
    if (outcome.type !== "range") ctx.headBlocks.clear();
    switch (outcome.type) {
      case "range":
        progress.trades += outcome.trades;
        if (!views.status(network).ready) {
          ctx.onProgress?.({
            network,
            fromBlock: progress.fromBlock ?? data.from,
            indexedBlock: outcome.to,
            headBlock: head,
            trades: progress.trades,
            elapsedMs: performance.now() - progress.startedAt,
            done: outcome.to >= head,
          });
        }
        // A long backfill still says the RPC is alive, and follows a head that moves on: the
        // head watch (watchHead) polls beside the reads; without one, the range's end polls.
        {
          const seen = views.status(network).headBlock;
          if (seen !== undefined && seen > head) {
            head = seen;
            fill();
          } else if (Date.now() - (views.status(network).headCheckedAt ?? 0) > config.pollIntervalMs) {
            head = await refreshHead(ctx);
            fill();
          }
        }
        break;
      case "reorg":
        await ctx.exclusive(() => rollBackReorg(ctx, head));
        return;
      case "retry":
        log.info(
          { network, from: data.from, to: data.to, reason: outcome.reason },
          "reading the range again",
        );
        return;
      default:
        assertNever(outcome);
    }
  }
}
