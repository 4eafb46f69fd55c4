import { describe, expect, test } from "vitest";
import type { NetworkStatus } from "../../src/domain/market.js";
import type { TradeWindowTotals } from "../../src/domain/tradeStats.js";
import { getMarketStats } from "../../src/graphql/queries/getMarketStats.js";
import type { MarketReader } from "../../src/views/types.js";

// A unit test of getMarketStats' sharing: the reader is a stand-in whose store reads wait until
// the test lets them finish (the real path is test/graphql/marketStats.test.ts).
function fakeReader() {
  let block = 100n;
  const pending: (() => void)[] = [];
  const asked: bigint[] = [];
  const totals: TradeWindowTotals = { buys: 1, sells: 0, buyers: 1, sellers: 0, volumeUsd: 5n };
  const reader = {
    networks: () => ["bsc"],
    getConfig: () => ({ maxStalenessSeconds: 600 }),
    status: () =>
      ({
        network: "bsc",
        ready: true,
        halted: false,
        indexedBlock: block,
        syncedAt: Date.now(),
      }) as NetworkStatus,
    getTradeStats: (_network: string, query: { maxBlock: bigint; fromTimestamps: number[] }) => {
      asked.push(query.maxBlock);
      return new Promise((resolve) => pending.push(() => resolve(query.fromTimestamps.map(() => totals))));
    },
    getLastPrice: async () => 7n,
  } as unknown as MarketReader;
  return {
    reader,
    asked,
    setBlock: (next: bigint) => {
      block = next;
    },
    finishAll: () => {
      for (const finish of pending.splice(0)) finish();
    },
  };
}

const subject = {
  network: "bsc" as const,
  subject: { kind: "pool" as const, pool: "0x01" as `0x${string}` },
  withNative: false,
};

describe("market stats reads", () => {
  test("behavior: requests of one block and second share one read; a newer block's request joins the read still running", async () => {
    const fake = fakeReader();
    const now = Math.floor(Date.now() / 1000);
    const first = getMarketStats(fake.reader, subject, now, Date.now());
    const same = getMarketStats(fake.reader, subject, now, Date.now());
    expect(same).toBe(first);
    // A new block while the read runs: no second read is stacked on the store.
    fake.setBlock(101n);
    const newer = getMarketStats(fake.reader, subject, now + 1, Date.now());
    expect(newer).toBe(first);
    expect(fake.asked).toEqual([100n]);
    fake.finishAll();
    const data = await newer;
    // The answer names the state it is for.
    expect(data.blockNumber).toBe(100n);
    expect(data.asOf).toBe(now);
    // Once it has finished, the newer state gets its own read.
    const after = getMarketStats(fake.reader, subject, now + 1, Date.now());
    expect(after).not.toBe(first);
    expect(fake.asked).toEqual([100n, 101n]);
    fake.finishAll();
    expect((await after).blockNumber).toBe(101n);
  });
});
