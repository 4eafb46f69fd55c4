import { expect } from "vitest";
import type { TradePageQuery } from "../../src/domain/market.js";
import type { Address, Hash, NetworkName, PairReserves, Trade } from "../../src/domain/types.js";
import type { DayAggregate, RangeBatch, Store, StoredTrade } from "../../src/store/types.js";

// Trades and batches of the store suite, and the day aggregates recomputed from trades.
export const addr = (n: number | bigint): Address => `0x${n.toString(16).padStart(40, "0")}`;
export const hash = (n: number | bigint): Hash => `0x${n.toString(16).padStart(64, "0")}`;

export const POOL_A = addr(0xa1);
export const POOL_B = addr(0xb2);
export const POOL_C = addr(0xc3);
export const DAY = 86_400;
export const T0 = 1_700_000_000;

export function makeTrade(i: number, blockNumber: bigint, overrides: Partial<Trade> = {}): Trade {
  return {
    network: "bsc",
    txHash: hash(0x1000 + i),
    blockNumber,
    timestamp: T0 + Number(blockNumber) * 3,
    txIndex: i % 7,
    logIndex: i,
    sender: addr(0x5000 + i),
    tokenIn: addr(0x70),
    amountIn: 10n ** 18n * BigInt(i + 1),
    tokenOut: addr(0x71),
    amountOut: 2n * 10n ** 6n * BigInt(i + 1),
    volumeUsd: 3n * 10n ** 18n * BigInt(i + 1),
    tracked: true,
    pools: [POOL_A],
    ...overrides,
  };
}

export function makeBatch(
  trades: Trade[],
  blockNumbers: bigint[],
  reserves: PairReserves[] = [],
): RangeBatch {
  const last = blockNumbers[blockNumbers.length - 1] ?? 0n;
  return {
    checkpoint: { blockNumber: last, blockHash: hash(last) },
    blocks: blockNumbers.map((n) => ({
      number: n,
      hash: hash(n),
      parentHash: hash(n - 1n),
      timestamp: T0 + Number(n) * 3,
    })),
    pairs: [
      {
        address: POOL_A,
        dex: "uniswap-v2",
        factory: addr(0xf1),
        token0: addr(0x70),
        token1: addr(0x71),
        feeBps: 30,
      },
    ],
    reserves,
    trades,
  };
}

export const range = (from: bigint, to: bigint): bigint[] => {
  const out: bigint[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
};

export const withoutSeq = (trades: StoredTrade[]): Trade[] => trades.map(({ seq: _seq, ...trade }) => trade);

export const HOUR = 3_600;
/** Midnight UTC of T0's day: blocks of the day-aggregate tests are one hour apart from it. */
export const D0 = Math.floor(T0 / DAY) * DAY;
export const DAY0 = D0 / DAY;
export const ALL_DAYS = [0, 10 ** 12] as const;
export const TRADERS = [addr(0x5a1), addr(0x5a2), addr(0x5a3), addr(0x5a4)];

/**
 * Trade i of the day-aggregate tests: two per block, blocks one hour apart (24 a day), four
 * senders, every fifth untracked, volumes far past 2^53 with low digits a double would lose.
 */
export function dayTrade(i: number, overrides: Partial<Trade> = {}): Trade {
  const blockNumber = overrides.blockNumber ?? BigInt(Math.floor(i / 2));
  const tracked = i % 5 !== 0;
  return makeTrade(i, blockNumber, {
    timestamp: D0 + Number(blockNumber) * HOUR,
    txIndex: i % 2,
    sender: TRADERS[(i * 7) % TRADERS.length]!,
    volumeUsd: tracked ? 2n ** 200n + BigInt(i) * (10n ** 18n + 1n) : 0n,
    tracked,
    ...overrides,
  });
}

/** The day aggregates recomputed from a list of trades, ascending by day (what the store must hold). */
export function recomputeDays(trades: readonly Trade[]): DayAggregate[] {
  const days = new Map<number, DayAggregate & { senders: Set<string> }>();
  for (const t of trades) {
    const day = Math.floor(t.timestamp / DAY);
    let d = days.get(day);
    if (d === undefined) {
      d = { day, volumeUsd: 0n, tradeCount: 0, untrackedCount: 0, traderCount: 0, senders: new Set() };
      days.set(day, d);
    }
    d.volumeUsd += t.volumeUsd;
    d.tradeCount += 1;
    if (!t.tracked) d.untrackedCount += 1;
    d.senders.add(t.sender);
  }
  return [...days.values()]
    .sort((a, b) => a.day - b.day)
    .map(({ senders, ...d }) => ({ ...d, traderCount: senders.size }));
}

export const byDay = (days: DayAggregate[]): DayAggregate[] => [...days].sort((a, b) => a.day - b.day);

/** Reads every page of a query, checking each full page has exactly `limit` trades. */
export async function readAllPages(
  store: Store,
  network: NetworkName,
  query: TradePageQuery,
): Promise<Trade[]> {
  const out: Trade[] = [];
  let after = query.after;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await store.listTradePage(network, after === undefined ? query : { ...query, after });
    expect(page.length).toBeLessThanOrEqual(query.limit);
    out.push(...page);
    if (page.length < query.limit) return out;
    const last = page[page.length - 1]!;
    after = { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex };
  }
  throw new Error("paging did not end");
}
