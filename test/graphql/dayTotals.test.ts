import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadAllDayTotals } from "../../src/graphql/context/createDayStatsLoaders.js";
import type { MarketReader } from "../../src/views/types.js";
import {
  BSC,
  createFixtureReader,
  type Fixture,
  nextTxHash,
  POOLS,
  TRADERS,
} from "../support/fixtureReader.js";

let fixture: Fixture;

const E18 = 10n ** 18n;

beforeAll(async () => {
  fixture = await createFixtureReader();
  // A swap with candle marks an hour ago: its token and pool series have totals.
  await fixture.commit("bsc", [
    {
      network: "bsc",
      txHash: nextTxHash(),
      blockNumber: fixture.head.bsc + 1n,
      timestamp: fixture.now - 3_600,
      txIndex: 0,
      logIndex: 0,
      sender: TRADERS.carol,
      tracked: true,
      tokenIn: BSC.USDC,
      amountIn: 7n * E18,
      tokenOut: BSC.USDT,
      amountOut: 7n * E18,
      volumeUsd: 7n * E18,
      pools: [POOLS.USDC_USDT],
      marks: {
        priceInUsd: E18,
        priceOutUsd: E18,
        native: undefined,
        hops: [{ zeroForOne: false, amountIn: 7n * E18, amountOut: 7n * E18 }],
      },
    },
  ]);
  // And one 20 hours ago, in an hour that has long settled.
  await fixture.commit("bsc", [
    {
      network: "bsc",
      txHash: nextTxHash(),
      blockNumber: fixture.head.bsc + 1n,
      timestamp: fixture.now - 20 * 3_600,
      txIndex: 0,
      logIndex: 0,
      sender: TRADERS.alice,
      tracked: true,
      tokenIn: BSC.CAKE,
      amountIn: 5n * E18,
      tokenOut: BSC.USDT,
      amountOut: 10n * E18,
      volumeUsd: 10n * E18,
      pools: [POOLS.CAKE_WBNB],
      marks: {
        priceInUsd: 2n * E18,
        priceOutUsd: E18,
        native: undefined,
        hops: [{ zeroForOne: true, amountIn: 5n * E18, amountOut: 10n * E18 }],
      },
    },
  ]);
});

afterAll(() => fixture.close());

/**
 * The fixture's real reader with each whole-list read held until released (a read that takes
 * long): every read starts by asking where the settled hours end, which is held here.
 */
function slowStore(reader: MarketReader) {
  const calls: (() => void)[] = [];
  const slow = new Proxy(reader, {
    get(target, property, receiver) {
      if (property !== "settledBefore") return Reflect.get(target, property, receiver);
      return async (network: Parameters<MarketReader["settledBefore"]>[0]) => {
        await new Promise<void>((resolve) => calls.push(resolve));
        return target.settledBefore(network);
      };
    },
  });
  return { slow, calls };
}

describe("loadAllDayTotals", () => {
  test("behavior: reads never pile up: one runs, the states asked for meanwhile share one read after it", async () => {
    const { slow, calls } = slowStore(fixture.reader);
    const now = fixture.now;
    const head = fixture.head.bsc;
    const first = loadAllDayTotals(slow, "bsc", "token", now);
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    // The same state: the same read.
    expect(loadAllDayTotals(slow, "bsc", "token", now)).toBe(first);
    // Two newer states while it runs: one read, queued behind it.
    fixture.reader.setStatus("bsc", { indexedBlock: head + 1n, headBlock: head + 1n });
    const second = loadAllDayTotals(slow, "bsc", "token", now);
    fixture.reader.setStatus("bsc", { indexedBlock: head + 2n, headBlock: head + 2n });
    const third = loadAllDayTotals(slow, "bsc", "token", now);
    expect(third).toBe(second);
    expect(second).not.toBe(first);
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    calls[0]!();
    const totals = await first;
    // The queued read starts when the running one is done, and is the only one.
    await expect.poll(() => calls.length).toBe(2);
    calls[1]!();
    expect(await third).toEqual(totals);
    expect(loadAllDayTotals(slow, "bsc", "token", now)).toBe(third);
    expect(calls).toHaveLength(2);
    // Not vacuous: what the swap added.
    expect(totals.get(BSC.USDC)).toMatchObject({ quoteVolume: 7n * E18, tradeCount: 1 });
    // A failed read is not remembered: the next request reads again.
    const failing = new Proxy(fixture.reader, {
      get(target, property, receiver) {
        if (property === "sumCandles") return async () => Promise.reject(new Error("store down"));
        return Reflect.get(target, property, receiver);
      },
    });
    fixture.reader.setStatus("bsc", { indexedBlock: head + 3n, headBlock: head + 3n });
    await expect(loadAllDayTotals(failing, "bsc", "pool", now)).rejects.toThrow("store down");
    const again = await loadAllDayTotals(fixture.reader, "bsc", "pool", now);
    expect(again.get(POOLS.USDC_USDT)).toMatchObject({ volumeUsd: 7n * E18, tradeCount: 1 });
    fixture.reader.setStatus("bsc", { indexedBlock: head, headBlock: head });
  });

  test("behavior: the settled hours are summed once per window; each new state reads only the hours after them", async () => {
    const now = fixture.now;
    const head = fixture.head.bsc;
    const settledAt = now - 2 * 3_600;
    const ranges: [number, number][] = [];
    const reader = new Proxy(fixture.reader, {
      get(target, property, receiver) {
        if (property === "settledBefore") return async () => settledAt;
        if (property === "sumCandles") {
          return (...args: Parameters<MarketReader["sumCandles"]>) => {
            ranges.push([args[1].fromTimestamp, args[1].toTimestamp]);
            return target.sumCandles(...args);
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
    const hour = now - (now % 3_600);
    const from = Math.floor((now - 86_400) / 3_600) * 3_600;
    const settledTo = settledAt - (settledAt % 3_600);
    fixture.reader.setStatus("bsc", { indexedBlock: head + 10n, headBlock: head + 10n });
    const first = await loadAllDayTotals(reader, "bsc", "token", now);
    expect(ranges).toEqual([
      [from, settledTo - 3_600],
      [settledTo, hour],
    ]);
    // Exactly what one read of the whole window says: both swaps, the settled one and the recent one.
    const whole = await fixture.reader.sumCandles("bsc", {
      kind: "token",
      interval: 3_600,
      fromTimestamp: from,
      toTimestamp: hour,
    });
    expect(first).toEqual(whole);
    expect(first.get(BSC.USDT)).toMatchObject({ quoteVolume: 17n * E18, tradeCount: 2 });
    // A new state: only the recent hours again.
    fixture.reader.setStatus("bsc", { indexedBlock: head + 11n, headBlock: head + 11n });
    const second = await loadAllDayTotals(reader, "bsc", "token", now);
    expect(ranges.slice(2)).toEqual([[settledTo, hour]]);
    expect(second).toEqual(whole);
    fixture.reader.setStatus("bsc", { indexedBlock: head, headBlock: head });
  });
});
