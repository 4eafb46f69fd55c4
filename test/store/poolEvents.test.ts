import { expect, test } from "vitest";
import type { PoolEvent } from "../../src/domain/types.js";
import { BadRequestError } from "../../src/errors.js";
import type { Store } from "../../src/store/types.js";
import { describeStores } from "../support/storeBackends.js";
import { addr, hash, makeBatch, POOL_A, T0 } from "../support/storeFixtures.js";
import { V3_POOL_A } from "../support/v3Fixtures.js";

/** A pool event at a block and log index, at the block's fixture timestamp. */
function poolEvent(blockNumber: bigint, logIndex: number, overrides: Partial<PoolEvent> = {}): PoolEvent {
  return {
    network: "bsc",
    txHash: hash(blockNumber * 1_000n + BigInt(logIndex)),
    blockNumber,
    timestamp: T0 + Number(blockNumber) * 3,
    txIndex: logIndex % 5,
    logIndex,
    pool: logIndex % 2 === 0 ? POOL_A : V3_POOL_A,
    type: "swap",
    maker: addr(logIndex % 7),
    amount0: BigInt(logIndex + 1),
    amount1: -BigInt(logIndex + 2),
    reserves: logIndex % 2 === 0 ? { reserve0: 1_000n + BigInt(logIndex), reserve1: 2_000n } : undefined,
    ...overrides,
  };
}

/** Every page of a block range, `limit` at a time. */
async function readRange(
  store: Store,
  fromBlock: bigint,
  toBlock: bigint,
  limit: number,
): Promise<PoolEvent[]> {
  const out: PoolEvent[] = [];
  let after: { blockNumber: bigint; logIndex: number } | undefined;
  for (;;) {
    const page = await store.listPoolEvents("bsc", {
      fromBlock,
      toBlock,
      limit,
      ...(after ? { after } : {}),
    });
    out.push(...page);
    if (page.length < limit) return out;
    const last = page.at(-1)!;
    after = { blockNumber: last.blockNumber, logIndex: last.logIndex };
  }
}

/** Two or three events in each of blocks 100..139, at scattered log indexes. */
const history = (): PoolEvent[] =>
  Array.from({ length: 40 }, (_, i) => BigInt(100 + i)).flatMap((block) =>
    [3, 11, 40].slice(0, Number(block % 2n) + 2).map((logIndex) => poolEvent(block, logIndex)),
  );

describeStores("store pool events", ({ fresh }) => {
  test("behavior: every field round-trips exactly (signed amounts past 2^255, reserves or none, join and exit)", async () => {
    const store = await fresh();
    const events = [
      poolEvent(10n, 0, { amount0: 2n ** 255n + 1n, amount1: -(2n ** 255n) }),
      poolEvent(10n, 1, { type: "join", amount0: 0n, amount1: 2n ** 256n - 1n }),
      poolEvent(10n, 2, { type: "exit", reserves: { reserve0: 0n, reserve1: 2n ** 112n - 1n } }),
    ];
    await store.commitRange("bsc", { ...makeBatch([], [10n]), poolEvents: events });
    expect(await store.listPoolEvents("bsc", { fromBlock: 0n, toBlock: 10n, limit: 10 })).toStrictEqual(
      events,
    );
    expect(await store.listPoolEvents("eth", { fromBlock: 0n, toBlock: 10n, limit: 10 })).toEqual([]);
  });

  test("behavior: a block range is read in chain order, inclusive at both ends, page by page", async () => {
    const store = await fresh();
    const events = history();
    await store.commitRange("bsc", { ...makeBatch([], [139n]), poolEvents: events });
    for (const [from, to, limit] of [
      [100n, 139n, 7],
      [105n, 105n, 1],
      [110n, 120n, 1_000],
      [140n, 200n, 5],
    ] as const) {
      const expected = events.filter((e) => e.blockNumber >= from && e.blockNumber <= to);
      expect(await readRange(store, from, to, limit)).toEqual(expected);
    }
  });

  test("behavior: a re-commit replaces its blocks' events; a rollback drops those above the ancestor; prune those before tradesBefore", async () => {
    const store = await fresh();
    await store.commitRange("bsc", { ...makeBatch([], [139n]), poolEvents: history() });
    // Block 120 committed again (as after a retried range) with one event only.
    const again = poolEvent(120n, 5);
    await store.commitRange("bsc", { ...makeBatch([], [120n]), poolEvents: [again] });
    expect(await readRange(store, 120n, 120n, 10)).toEqual([again]);
    await store.rollback("bsc", { blockNumber: 130n, blockHash: hash(130n) });
    expect((await readRange(store, 0n, 200n, 50)).at(-1)!.blockNumber).toBe(130n);
    await store.prune("bsc", { tradesBefore: T0 + 110 * 3, blocksBelow: 0n });
    const left = await readRange(store, 0n, 200n, 50);
    expect(left[0]!.blockNumber).toBe(110n);
    expect(left.every((e) => e.blockNumber >= 110n && e.blockNumber <= 130n)).toBe(true);
  });

  test("error: a bad limit, a reversed range or a bad position is a BadRequestError", async () => {
    const store = await fresh();
    for (const query of [
      { fromBlock: 0n, toBlock: 1n, limit: 0 },
      { fromBlock: 0n, toBlock: 1n, limit: 10_001 },
      { fromBlock: 5n, toBlock: 1n, limit: 10 },
      { fromBlock: 0n, toBlock: 1n, limit: 10, after: { blockNumber: 0n, logIndex: -1 } },
    ]) {
      await expect(store.listPoolEvents("bsc", query)).rejects.toThrow(BadRequestError);
    }
  });
});
