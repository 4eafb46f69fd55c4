import { describe, expect, test } from "vitest";
import type { MarketEvent, TradePageQuery } from "../../src/domain/market.js";
import type { BlockRef, Checkpoint, Hash, Trade } from "../../src/domain/types.js";
import { SlowSubscriberError } from "../../src/errors.js";
import { subscribeSwaps } from "../../src/graphql/subscriptions/subscribeSwaps.js";
import { MAX_PENDING_EVENTS } from "../../src/graphql/subscriptions/watchMarket.js";
import { createTradeFeed } from "../../src/views/createTradeFeed.js";
import type { FeedSource, MarketReader } from "../../src/views/types.js";
import { waitFor } from "../support/waitFor.js";

// Unit tests of the feed's bookkeeping against a scripted store (the real path, anvil to SSE, is
// test/graphql/subscriptions.test.ts).

const hash = (n: bigint, branch = "a"): Hash => `0x${branch}${n.toString(16).padStart(63, "0")}`;
const checkpoint = (n: bigint, branch = "a"): Checkpoint => ({ blockNumber: n, blockHash: hash(n, branch) });

function trade(block: bigint, txIndex: number): Trade {
  return {
    network: "bsc",
    txHash: hash(block * 1000n + BigInt(txIndex), "f"),
    blockNumber: block,
    timestamp: Number(block),
    txIndex,
    logIndex: txIndex,
    sender: "0x0000000000000000000000000000000000000001",
    tokenIn: "",
    amountIn: 1n,
    tokenOut: "0x0000000000000000000000000000000000000002",
    amountOut: 1n,
    volumeUsd: 0n,
    tracked: false,
    pools: [],
  };
}

/** A store of blocks 1..n with `perBlock` trades each; `reads` counts trade page reads. */
function scriptedStore(perBlock: number) {
  let trades: Trade[] = [];
  let blocks: BlockRef[] = [];
  const state = { reads: 0, failNext: false, gate: undefined as Promise<void> | undefined };
  const source: FeedSource = {
    async listTradePage(_network, query: TradePageQuery) {
      state.reads++;
      await state.gate;
      if (state.failNext) {
        state.failNext = false;
        throw new Error("store unavailable");
      }
      const after = query.after!;
      return trades
        .filter(
          (t) =>
            t.blockNumber <= query.maxBlock! &&
            (t.blockNumber > after.blockNumber ||
              (t.blockNumber === after.blockNumber && t.txIndex > after.txIndex)),
        )
        .slice(0, query.limit);
    },
    async listBlocks(_network, from = 0n) {
      return blocks.filter((b) => b.number >= from);
    },
  };
  return {
    source,
    state,
    /** Appends blocks up to `n` on `branch` (after dropping those above `from`). */
    extend(from: bigint, n: bigint, branch = "a") {
      trades = trades.filter((t) => t.blockNumber <= from);
      blocks = blocks.filter((b) => b.number <= from);
      for (let b = from + 1n; b <= n; b++) {
        blocks.push({
          number: b,
          hash: hash(b, branch),
          parentHash: hash(b - 1n, branch),
          timestamp: Number(b),
        });
        for (let i = 0; i < perBlock; i++)
          trades.push({ ...trade(b, i), txHash: hash(b * 1000n + BigInt(i), branch) });
      }
    },
  };
}

function listen(feed: ReturnType<typeof createTradeFeed>) {
  const events: MarketEvent[] = [];
  const stop = feed.subscribe("bsc", (event) => events.push(event));
  return { events, stop };
}

describe("createTradeFeed", () => {
  test("behavior: nothing is read from the store while nobody listens", async () => {
    const store = scriptedStore(3);
    const feed = createTradeFeed({ source: store.source, finalityDepth: () => 10 });
    store.extend(0n, 5n);
    feed.reloaded("bsc", checkpoint(5n));
    for (let n = 6n; n <= 9n; n++) {
      store.extend(n - 1n, n);
      feed.advanced("bsc", checkpoint(n));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.state.reads).toBe(0);
    // A listener gets what comes after it subscribed, never the past.
    const { events } = listen(feed);
    store.extend(9n, 10n);
    feed.advanced("bsc", checkpoint(10n));
    await waitFor(() => events.some((e) => e.type === "indexed"));
    expect(events[0]).toMatchObject({ type: "added", block: 10n });
    expect((events[0] as { trades: readonly Trade[] }).trades.map((t) => t.blockNumber)).toEqual([
      10n,
      10n,
      10n,
    ]);
  });

  test("behavior: commits that arrive during a read are sent from one more read, in order", async () => {
    const store = scriptedStore(2);
    const feed = createTradeFeed({ source: store.source, finalityDepth: () => 10 });
    store.extend(0n, 1n);
    feed.reloaded("bsc", checkpoint(1n));
    await new Promise((resolve) => setImmediate(resolve));
    const { events } = listen(feed);
    let open!: () => void;
    store.state.gate = new Promise((resolve) => {
      open = resolve;
    });
    for (let n = 2n; n <= 6n; n++) {
      store.extend(n - 1n, n);
      feed.advanced("bsc", checkpoint(n));
    }
    open();
    await waitFor(() => events.some((e) => e.type === "indexed" && e.block === 6n));
    // Block 2 was being read when 3..6 came: they were read together, once.
    expect(store.state.reads).toBe(2);
    const sent = events.flatMap((e) => (e.type === "added" ? e.trades : []));
    expect(sent.map((t) => `${t.blockNumber}:${t.txIndex}`)).toEqual(
      [2n, 3n, 4n, 5n, 6n].flatMap((b) => [`${b}:0`, `${b}:1`]),
    );
  });

  test("behavior: a read that fails is retried at the next commit without sending anything twice", async () => {
    const store = scriptedStore(1);
    const errors: unknown[] = [];
    const feed = createTradeFeed({
      source: store.source,
      finalityDepth: () => 10,
      onError: (_network, error) => errors.push(error),
    });
    store.extend(0n, 1n);
    feed.reloaded("bsc", checkpoint(1n));
    const { events } = listen(feed);
    store.state.failNext = true;
    store.extend(1n, 2n);
    feed.advanced("bsc", checkpoint(2n));
    await waitFor(() => errors.length === 1);
    store.extend(2n, 3n);
    feed.advanced("bsc", checkpoint(3n));
    await waitFor(() => events.some((e) => e.type === "indexed" && e.block === 3n));
    const sent = events.flatMap((e) => (e.type === "added" ? e.trades : []));
    expect(sent.map((t) => t.blockNumber)).toEqual([2n, 3n]);
  });

  test("behavior: after a reload on another branch, exactly the trades above the fork are withdrawn", async () => {
    const store = scriptedStore(1);
    const feed = createTradeFeed({ source: store.source, finalityDepth: () => 10 });
    store.extend(0n, 3n);
    feed.reloaded("bsc", checkpoint(3n));
    const { events } = listen(feed);
    // Blocks 4..6 arrive as one commit: the feed knows each block's hash from the store.
    store.extend(3n, 6n);
    feed.advanced("bsc", checkpoint(6n));
    await waitFor(() => events.some((e) => e.type === "indexed" && e.block === 6n));
    // A replica reloads at block 7 of a branch that forked after block 4.
    store.extend(4n, 7n, "b");
    feed.reloaded("bsc", checkpoint(7n, "b"));
    await waitFor(() => events.some((e) => e.type === "indexed" && e.block === 7n));
    const removed = events.find((e) => e.type === "removed");
    expect(removed).toMatchObject({ type: "removed", ancestor: 4n });
    expect((removed as { trades: readonly Trade[] }).trades.map((t) => t.blockNumber)).toEqual([5n, 6n]);
    const resent = events
      .slice(events.indexOf(removed!))
      .flatMap((e) => (e.type === "added" ? e.trades : []));
    expect(resent.map((t) => [t.blockNumber, t.txHash.slice(2, 3)])).toEqual([
      [5n, "b"],
      [6n, "b"],
      [7n, "b"],
    ]);
  });

  test("behavior: a backfill's commits are skipped, never read back; news starts when the head is followed", async () => {
    const store = scriptedStore(2);
    let live = false;
    const feed = createTradeFeed({ source: store.source, finalityDepth: () => 10, isLive: () => live });
    store.extend(0n, 1n);
    feed.reloaded("bsc", checkpoint(1n));
    const { events } = listen(feed);
    for (let n = 2n; n <= 5n; n++) {
      store.extend(n - 1n, n);
      feed.advanced("bsc", checkpoint(n));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(store.state.reads).toBe(0);
    live = true;
    store.extend(5n, 6n);
    feed.advanced("bsc", checkpoint(6n));
    await waitFor(() => events.some((e) => e.type === "indexed" && e.block === 6n));
    const sent = events.flatMap((e) => (e.type === "added" ? e.trades : []));
    expect(sent.map((t) => t.blockNumber)).toEqual([6n, 6n]);
  });

  test("behavior: close ends every listener and refuses new ones", () => {
    const feed = createTradeFeed({ source: scriptedStore(0).source, finalityDepth: () => 10 });
    const { events } = listen(feed);
    feed.close();
    expect(events).toEqual([{ type: "closed", network: "bsc" }]);
    expect(feed.listenerCount()).toBe(0);
    expect(listen(feed).events).toEqual([{ type: "closed", network: "bsc" }]);
  });
});

describe("subscribeSwaps", () => {
  test("error: a subscriber that stops reading is ended with TOO_SLOW, bounded in memory", async () => {
    let listener: ((event: MarketEvent) => void) | undefined;
    // Only what subscribeSwaps calls without filters: a stand-in for the views in a unit test.
    const reader = {
      networks: () => ["bsc"],
      subscribe: (_network: string, l: (event: MarketEvent) => void) => {
        listener = l;
        return () => {
          listener = undefined;
        };
      },
    } as unknown as MarketReader;
    const iterator = subscribeSwaps(reader, { network: "bsc" });
    const first = iterator.next();
    await waitFor(() => listener !== undefined);
    for (let i = 0; i < MAX_PENDING_EVENTS + 50; i++) {
      listener?.({ type: "added", network: "bsc", block: BigInt(i), trades: [trade(BigInt(i), 0)] });
    }
    await waitFor(() => listener === undefined, 5_000, "the subscriber dropped");
    expect((await first).value).toMatchObject({ type: "ADDED", blockNumber: 0n });
    let received = 1;
    await expect(
      (async () => {
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          received++;
        }
      })(),
    ).rejects.toBeInstanceOf(SlowSubscriberError);
    expect(received).toBeLessThanOrEqual(MAX_PENDING_EVENTS + 1);
  });
});
