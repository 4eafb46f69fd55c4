import { expect, test } from "vitest";
import type { Hash } from "../../src/domain/types.js";
import type { RangeBatch } from "../../src/store/types.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { describeStores } from "../support/storeBackends.js";
import {
  ALL_DAYS,
  addr,
  byDay,
  D0,
  DAY,
  DAY0,
  dayTrade,
  HOUR,
  hash,
  makeBatch,
  range,
  recomputeDays,
} from "../support/storeFixtures.js";

describeStores("store day volumes", ({ fresh }) => {
  test("behavior: day aggregates stay exact through commits, a changed re-commit, rollbacks and a prune", async () => {
    const store = await fresh();
    const expectExact = async () =>
      expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(
        recomputeDays(await listAllTrades(store, "bsc", 0)),
      );
    // Blocks 0..71: three whole days, committed a day per range. Trade 130 (block 65) is its
    // sender's only one, so the rollback below takes that sender out of a day that stays.
    const trades = Array.from({ length: 144 }, (_, i) =>
      dayTrade(i, i === 130 ? { sender: addr(0x5b6) } : {}),
    );
    for (const [from, to] of [
      [0n, 23n],
      [24n, 47n],
      [48n, 71n],
    ] as const) {
      await store.commitRange(
        "bsc",
        makeBatch(
          trades.filter((t) => t.blockNumber >= from && t.blockNumber <= to),
          range(from, to),
        ),
      );
      await expectExact();
    }
    const ethTrades = [dayTrade(900, { network: "eth" }), dayTrade(901, { network: "eth" })];
    await store.commitRange("eth", makeBatch(ethTrades, [450n]));
    const ethDays = recomputeDays(ethTrades);
    expect(await store.listDayAggregates("eth", ...ALL_DAYS)).toEqual(ethDays);
    const days = await store.listDayAggregates("bsc", ...ALL_DAYS);
    expect(days.map((d) => d.day)).toEqual([DAY0, DAY0 + 1, DAY0 + 2]);
    expect(days.map((d) => d.traderCount)).toEqual([4, 4, 5]);

    // A re-commit of blocks 40..55 where some transactions changed: a sender only (the day's
    // volume and count stay, its distinct senders change), a volume, tracked to untracked, one
    // transaction moved from day 1 into day 2, and two new ones.
    const changed = trades
      .filter((t) => t.blockNumber >= 40n && t.blockNumber <= 55n)
      .map((t) => {
        if (t.txHash === trades[80]!.txHash) return { ...t, sender: addr(0x5b9) };
        if (t.txHash === trades[82]!.txHash) return { ...t, volumeUsd: 7n };
        if (t.txHash === trades[84]!.txHash) return { ...t, volumeUsd: 0n, tracked: false };
        if (t.txHash === trades[93]!.txHash) {
          return { ...t, blockNumber: 50n, timestamp: D0 + 50 * HOUR, txIndex: 5, sender: addr(0x5b8) };
        }
        return t;
      });
    changed.push(dayTrade(500, { blockNumber: 44n, txIndex: 9 }));
    changed.push(dayTrade(501, { blockNumber: 52n, txIndex: 9, sender: addr(0x5b7) }));
    await store.commitRange("bsc", makeBatch(changed, range(40n, 55n)));
    expect(await listAllTrades(store, "bsc", 0)).toHaveLength(146);
    await expectExact();
    expect((await store.listDayAggregates("bsc", DAY0 + 1, DAY0 + 2)).map((d) => d.traderCount)).toEqual([
      5, 7,
    ]);
    // Trade 80 goes back to its first sender: 0x5b9 leaves day 1, which keeps its volume and count.
    await store.commitRange("bsc", makeBatch([trades[80]!], [40n]));
    await expectExact();
    expect((await store.listDayAggregates("bsc", DAY0 + 1, DAY0 + 1))[0]!.traderCount).toBe(4);

    await store.rollback("bsc", { blockNumber: 60n, blockHash: hash(60n) });
    await expectExact();
    expect((await store.listDayAggregates("bsc", DAY0 + 2, DAY0 + 2))[0]!.traderCount).toBe(6);
    // Down into day 1: day 2 loses every trade and its row goes.
    await store.rollback("bsc", { blockNumber: 45n, blockHash: hash(45n) });
    await expectExact();
    expect((await store.listDayAggregates("bsc", ...ALL_DAYS)).map((d) => d.day)).toEqual([DAY0, DAY0 + 1]);
    await store.commitRange(
      "bsc",
      makeBatch(
        Array.from({ length: 10 }, (_, i) => dayTrade(600 + i, { blockNumber: 46n + BigInt(i) })),
        range(46n, 55n),
      ),
    );
    await expectExact();

    // Prune in the middle of day 1: day 0 goes, day 1 keeps its whole aggregate although its
    // first five hours of trades are deleted.
    const beforePrune = recomputeDays(await listAllTrades(store, "bsc", 0));
    await store.prune("bsc", { tradesBefore: D0 + DAY + 5 * HOUR, blocksBelow: 0n });
    expect((await listAllTrades(store, "bsc", 0))[0]!.timestamp).toBe(D0 + DAY + 5 * HOUR);
    expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(
      beforePrune.filter((d) => d.day >= DAY0 + 1),
    );
    expect(await store.listDayAggregates("eth", ...ALL_DAYS)).toEqual(ethDays);
  });

  test("behavior: listDayAggregates answers an inclusive day range; countTrades counts since a timestamp", async () => {
    const store = await fresh();
    const trades = Array.from({ length: 144 }, (_, i) => dayTrade(i));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 71n)));
    const all = recomputeDays(trades);
    expect(await store.listDayAggregates("bsc", DAY0 + 1, DAY0 + 1)).toEqual([all[1]]);
    expect(byDay(await store.listDayAggregates("bsc", DAY0 + 1, DAY0 + 9))).toEqual(all.slice(1));
    expect(await store.listDayAggregates("bsc", DAY0 + 3, DAY0 + 9)).toEqual([]);
    expect(await store.listDayAggregates("eth", ...ALL_DAYS)).toEqual([]);
    expect(await store.countTrades("bsc", 0)).toBe(144);
    expect(await store.countTrades("bsc", D0 + 70 * HOUR)).toBe(4);
    expect(await store.countTrades("bsc", D0 + 72 * HOUR)).toBe(0);
    expect(await store.countTrades("eth", 0)).toBe(0);
  });

  test("error: a failed commit leaves the day aggregates untouched", async () => {
    const store = await fresh();
    const trades = Array.from({ length: 60 }, (_, i) => dayTrade(i));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 29n)));
    const before = await store.listDayAggregates("bsc", ...ALL_DAYS);
    const storedBefore = await listAllTrades(store, "bsc", 0);
    expect(before).toHaveLength(2);

    // Replaces stored trades with new senders and volumes (moving one to another day), then fails:
    // once on a transaction listed twice, once on the checkpoint, the batch's last statement.
    const changed = trades.slice(40, 50).map((t, i) => ({
      ...t,
      sender: addr(0x5c0 + i),
      volumeUsd: t.volumeUsd + 1n,
      ...(i === 9 ? { timestamp: D0 } : {}),
    }));
    const duplicate = makeBatch([...changed, dayTrade(70), dayTrade(70)], range(20n, 35n));
    await expect(store.commitRange("bsc", duplicate)).rejects.toThrow(/unique|duplicate/i);
    const noHash: RangeBatch = {
      ...makeBatch([...changed, dayTrade(71)], range(20n, 35n)),
      checkpoint: { blockNumber: 35n, blockHash: null as unknown as Hash },
    };
    await expect(store.commitRange("bsc", noHash)).rejects.toThrow(/null/i);

    expect(await store.listDayAggregates("bsc", ...ALL_DAYS)).toEqual(before);
    expect(await listAllTrades(store, "bsc", 0)).toEqual(storedBefore);
    // And the aggregates still move correctly afterwards.
    await store.commitRange("bsc", makeBatch(changed, range(20n, 25n)));
    expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(
      recomputeDays(await listAllTrades(store, "bsc", 0)),
    );
  });
});
