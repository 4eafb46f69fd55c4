import { expect, test } from "vitest";
import type { LiquidityEventQuery } from "../../src/domain/market.js";
import type { LiquidityEvent, NetworkName } from "../../src/domain/types.js";
import { BadRequestError } from "../../src/errors.js";
import type { Store } from "../../src/store/types.js";
import { describeStores } from "../support/storeBackends.js";
import { addr, hash, makeBatch, POOL_A, T0 } from "../support/storeFixtures.js";
import {
  liquidityEvent,
  MAX_UINT128,
  TOKEN_X,
  TOKEN_Y,
  TOKEN_Z,
  V3_POOL_A,
  V3_POOL_B,
  v3Batch,
} from "../support/v3Fixtures.js";

const POOLS = [V3_POOL_A, V3_POOL_B, POOL_A];

/**
 * 150 events over blocks 100..199 with gaps (every seventh block has none), one to three per
 * block at scattered log indexes, across two V3 pools and a V2 pair (whose events have no
 * liquidity or ticks).
 */
function eventHistory(): LiquidityEvent[] {
  const events: LiquidityEvent[] = [];
  for (let block = 100n, i = 0; block < 200n; block++) {
    if (block % 7n === 0n) continue;
    for (let k = 0; k < Number(block % 3n) + 1 && events.length < 150; k++, i++) {
      const pool = POOLS[i % 3]!;
      const v2 = pool === POOL_A ? { liquidity: undefined, tickLower: undefined, tickUpper: undefined } : {};
      events.push(liquidityEvent(i, block, pool, { logIndex: 5 * k + (i % 4), ...v2 }));
    }
  }
  return events;
}

/** Reads every page of a query: each full page holds exactly `limit` events, and none repeats. */
async function readAllEventPages(
  store: Store,
  network: NetworkName,
  query: LiquidityEventQuery,
): Promise<LiquidityEvent[]> {
  const out: LiquidityEvent[] = [];
  let after = query.after;
  for (let pages = 0; pages < 1_000; pages++) {
    const page = await store.listLiquidityEvents(network, after === undefined ? query : { ...query, after });
    expect(page.length).toBeLessThanOrEqual(query.limit);
    out.push(...page);
    if (page.length < query.limit) {
      expect(new Set(out.map((e) => `${e.blockNumber}:${e.logIndex}`)).size).toBe(out.length);
      return out;
    }
    const last = page[page.length - 1]!;
    after = { blockNumber: last.blockNumber, logIndex: last.logIndex };
  }
  throw new Error("paging did not end");
}

const inOrder = (events: readonly LiquidityEvent[]) =>
  [...events].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );

describeStores("store liquidity events", ({ fresh }) => {
  test("behavior: every field round-trips exactly (V3 and V2 events, uint128 maxima, negative ticks)", async () => {
    const store = await fresh();
    const events = [
      liquidityEvent(0, 10n, V3_POOL_A, {
        type: "burn",
        amount0: MAX_UINT128,
        amount1: 2n ** 256n - 1n,
        liquidity: MAX_UINT128,
        tickLower: -887_272,
        tickUpper: -887_270,
        amountUsd: 2n ** 255n + 1n,
      }),
      liquidityEvent(1, 10n, POOL_A, {
        type: "mint",
        amount0: 0n,
        liquidity: undefined,
        tickLower: undefined,
        tickUpper: undefined,
        amountUsd: 0n,
      }),
    ];
    await store.commitRange("bsc", v3Batch([10n], { liquidityEvents: events }));
    const read = await store.listLiquidityEvents("bsc", { fromTimestamp: 0, limit: 10 });
    expect(read).toStrictEqual(events);
    expect(await store.listLiquidityEvents("eth", { fromTimestamp: 0, limit: 10 })).toEqual([]);
  });

  test("behavior: keyset pages list every event once, in chain order, under every filter", async () => {
    const store = await fresh();
    const events = eventHistory();
    await store.commitRange("bsc", makeBatch([], [99n]));
    await store.commitRange("bsc", v3Batch([199n], { liquidityEvents: events }));
    // Another network's events never show.
    await store.commitRange("eth", {
      ...v3Batch([150n], { liquidityEvents: [liquidityEvent(900, 150n, V3_POOL_A, { network: "eth" })] }),
    });
    const ts = (block: bigint) => T0 + Number(block) * 3;
    const cases: [string, Omit<LiquidityEventQuery, "limit">, (e: LiquidityEvent) => boolean][] = [
      ["everything", { fromTimestamp: 0 }, () => true],
      ["one pool", { fromTimestamp: 0, pool: V3_POOL_B }, (e) => e.pool === V3_POOL_B],
      ["a token of one pool", { fromTimestamp: 0, token: TOKEN_X }, (e) => e.pool === V3_POOL_A],
      ["a token of two pools", { fromTimestamp: 0, token: TOKEN_Y }, (e) => e.pool !== POOL_A],
      ["a V2 pair's token", { fromTimestamp: 0, token: addr(0x70) }, (e) => e.pool === POOL_A],
      ["no pool holds the token", { fromTimestamp: 0, token: addr(0x99) }, () => false],
      [
        "a time window (from a block with no event)",
        { fromTimestamp: ts(126n), toTimestamp: ts(161n) },
        (e) => e.blockNumber >= 126n && e.blockNumber < 161n,
      ],
      ["a window before every event", { fromTimestamp: 0, toTimestamp: ts(100n) }, () => false],
      ["a window after every event", { fromTimestamp: ts(200n) }, () => false],
      ["maxBlock", { fromTimestamp: 0, maxBlock: 140n }, (e) => e.blockNumber <= 140n],
      [
        "after a position inside a block",
        { fromTimestamp: 0, after: { blockNumber: events[40]!.blockNumber, logIndex: events[40]!.logIndex } },
        (e) => inOrder(events).indexOf(e) > inOrder(events).indexOf(events[40]!),
      ],
      [
        "pool, token, window and maxBlock together",
        { fromTimestamp: ts(110n), toTimestamp: ts(190n), maxBlock: 170n, pool: V3_POOL_A, token: TOKEN_Z },
        () => false,
      ],
      [
        "token, window and maxBlock together",
        { fromTimestamp: ts(110n), toTimestamp: ts(190n), maxBlock: 170n, token: TOKEN_Z },
        (e) => e.pool === V3_POOL_B && e.blockNumber >= 110n && e.blockNumber <= 170n,
      ],
    ];
    for (const [name, query, keep] of cases) {
      const expected = inOrder(events.filter(keep));
      for (const limit of [1, 7, 10_000]) {
        const read = await readAllEventPages(store, "bsc", { ...query, limit });
        expect(read, `${name}, limit ${limit}`).toEqual(expected);
      }
    }
    expect(inOrder(events.filter((e) => e.pool === V3_POOL_B)).length).toBeGreaterThan(40);
  });

  test("behavior: a rollback removes the events above the ancestor; prune removes those before tradesBefore", async () => {
    const store = await fresh();
    const events = eventHistory();
    await store.commitRange("bsc", v3Batch([199n], { liquidityEvents: events }));
    await store.rollback("bsc", { blockNumber: 150n, blockHash: hash(150n) });
    const all = { fromTimestamp: 0, limit: 10_000 };
    expect(await store.listLiquidityEvents("bsc", all)).toEqual(
      inOrder(events.filter((e) => e.blockNumber <= 150n)),
    );
    await store.prune("bsc", { tradesBefore: T0 + 120 * 3, blocksBelow: 0n });
    expect(await store.listLiquidityEvents("bsc", all)).toEqual(
      inOrder(events.filter((e) => e.blockNumber >= 120n && e.blockNumber <= 150n)),
    );
  });

  test("error: a limit outside 1..10,000 or a negative log index is a bad request", async () => {
    const store = await fresh();
    for (const limit of [0, 10_001, 1.5]) {
      await expect(store.listLiquidityEvents("bsc", { fromTimestamp: 0, limit })).rejects.toThrow(
        BadRequestError,
      );
    }
    await expect(
      store.listLiquidityEvents("bsc", {
        fromTimestamp: 0,
        limit: 5,
        after: { blockNumber: 1n, logIndex: -1 },
      }),
    ).rejects.toThrow("Invalid liquidity event page position.");
  });
});
