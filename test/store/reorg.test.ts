import { expect, test } from "vitest";
import type { PairReserves } from "../../src/domain/types.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { describeStores } from "../support/storeBackends.js";
import { hash, makeBatch, makeTrade, POOL_A, POOL_B, POOL_C, range, T0 } from "../support/storeFixtures.js";

describeStores("store rollback and prune", ({ fresh }) => {
  test("behavior: rollback removes everything above the ancestor and keeps the rest", async () => {
    const store = await fresh();
    const blocks = range(100n, 105n);
    const trades = blocks.map((n, i) => makeTrade(i, n));
    const reserves: PairReserves[] = [
      { pair: POOL_A, blockNumber: 100n, logIndex: 0, reserve0: 100n, reserve1: 1n },
      { pair: POOL_A, blockNumber: 103n, logIndex: 0, reserve0: 103n, reserve1: 1n },
      { pair: POOL_A, blockNumber: 105n, logIndex: 0, reserve0: 105n, reserve1: 1n },
      { pair: POOL_B, blockNumber: 104n, logIndex: 2, reserve0: 104n, reserve1: 2n },
      { pair: POOL_C, blockNumber: 101n, logIndex: 0, reserve0: 101n, reserve1: 3n },
    ];
    await store.commitRange("bsc", makeBatch(trades, blocks, reserves));
    await store.commitRange("eth", { ...makeBatch([makeTrade(9, 104n, { network: "eth" })], [104n]) });
    expect(await store.listReserves("bsc")).toHaveLength(3);
    // Only the pairs that changed since a block, each with its newest row (what followers poll).
    expect(await store.listReserves("bsc", 104n)).toEqual([reserves[2], reserves[3]]);
    expect(await store.listReserves("bsc", 106n)).toEqual([]);

    const ancestor = { blockNumber: 102n, blockHash: hash(102n) };
    await store.rollback("bsc", ancestor);

    expect((await listAllTrades(store, "bsc", 0)).map((t) => t.blockNumber)).toEqual([100n, 101n, 102n]);
    expect((await store.listBlocks("bsc")).map((b) => b.number)).toEqual([100n, 101n, 102n]);
    expect(await store.listReserves("bsc")).toEqual([reserves[0], reserves[4]]);
    expect(await store.getCheckpoint("bsc")).toEqual(ancestor);
    // Other networks are untouched.
    expect(await listAllTrades(store, "eth", 0)).toHaveLength(1);
    expect(await store.getCheckpoint("eth")).toEqual({ blockNumber: 104n, blockHash: hash(104n) });
  });

  test("behavior: prune drops old trades and blocks, and reserves except each pair's newest", async () => {
    const store = await fresh();
    const blocks = range(1n, 10n);
    const trades = blocks.map((n, i) => makeTrade(i, n));
    const reserves: PairReserves[] = [
      { pair: POOL_A, blockNumber: 2n, logIndex: 0, reserve0: 2n, reserve1: 1n },
      { pair: POOL_A, blockNumber: 4n, logIndex: 0, reserve0: 4n, reserve1: 1n },
      { pair: POOL_A, blockNumber: 8n, logIndex: 0, reserve0: 8n, reserve1: 1n },
      { pair: POOL_B, blockNumber: 1n, logIndex: 0, reserve0: 1n, reserve1: 2n },
      { pair: POOL_B, blockNumber: 3n, logIndex: 0, reserve0: 3n, reserve1: 2n },
    ];
    await store.commitRange("bsc", makeBatch(trades, blocks, reserves));

    await store.prune("bsc", { tradesBefore: T0 + 7 * 3, blocksBelow: 5n });

    expect((await listAllTrades(store, "bsc", 0)).map((t) => t.blockNumber)).toEqual([7n, 8n, 9n, 10n]);
    expect((await store.listBlocks("bsc")).map((b) => b.number)).toEqual([5n, 6n, 7n, 8n, 9n, 10n]);
    expect(await store.listReserves("bsc")).toEqual([reserves[2], reserves[4]]);
    // Rolling back to block 5 now shows that POOL_A's rows below the prune line are gone.
    await store.rollback("bsc", { blockNumber: 5n, blockHash: hash(5n) });
    expect(await store.listReserves("bsc")).toEqual([reserves[4]]);
  });
});
