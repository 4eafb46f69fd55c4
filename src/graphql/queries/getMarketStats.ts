import { formatDecimal } from "../../domain/formatDecimal.js";
import type { CandleSubject } from "../../domain/market.js";
import { priceChangePercentage } from "../../domain/priceChangePercentage.js";
import type { TradeWindowTotals } from "../../domain/tradeStats.js";
import type { Address, NetworkName } from "../../domain/types.js";
import { assertNetworkReady } from "../../views/assertNetworkReady.js";
import type { MarketHistory, MarketState } from "../../views/types.js";

/** The trailing windows of market stats (GeckoTerminal's m5, h1, h6, h24), in seconds. */
const STATS_WINDOWS = [
  { name: "M5", field: "m5", seconds: 300 },
  { name: "H1", field: "h1", seconds: 3_600 },
  { name: "H6", field: "h6", seconds: 21_600 },
  { name: "H24", field: "h24", seconds: 86_400 },
] as const;

/** The market stats of a token or pool in raw units, as read for one indexed state and instant. */
export interface MarketStatsData {
  /** The end of every window (exclusive), unix seconds. */
  asOf: number;
  /** The indexed block the trades are counted up to. */
  blockNumber: bigint;
  /** The price just before asOf; undefined when the series never had one. */
  price: bigint | undefined;
  windows: {
    from: number;
    /** The price just before the window's start. */
    openPrice: bigint | undefined;
    totals: TradeWindowTotals;
  }[];
}

/** A stats request: the series, and whether the native coin's trades count as its (wrapped) token. */
export interface MarketStatsSubject {
  network: NetworkName;
  subject: CandleSubject;
  withNative: boolean;
}

// Answers shared across requests: one read per reader (the process's views), series, indexed
// block and second, whoever asks (single-flight: the requests of one instant share the running
// read). Only the newest state of a network is kept, so memory holds at most the series asked
// about in one second. And a series has one read running at a time: a request of a newer state
// that finds its series' read still running joins it (its answer names the block and instant it
// is for, `blockNumber` and `asOf`), so a busy series on fast blocks never stacks reads on the store.
const MAX_KEPT = 10_000;
interface NetworkReads {
  state: string;
  reads: Map<string, Promise<MarketStatsData>>;
  /** The read of each series still running, whatever its state. */
  running: Map<string, Promise<MarketStatsData>>;
}
const keptByReader = new WeakMap<MarketState & MarketHistory, Map<NetworkName, NetworkReads>>();

function subjectKey({ subject, withNative }: MarketStatsSubject): string {
  return subject.kind === "token" ? `t:${subject.token}:${withNative ? 1 : 0}` : `p:${subject.pool}`;
}

/**
 * The market stats of a token or pool at `now` (unix seconds) over the network's indexed state:
 * each window [now - w, now) counted by one store aggregate, the prices from the candles and the
 * last minute's trades. Throws NOT_READY when the network does not serve.
 */
export function getMarketStats(
  reader: MarketState & MarketHistory,
  request: MarketStatsSubject,
  now: number,
  nowMs: number,
): Promise<MarketStatsData> {
  const { network } = request;
  assertNetworkReady(reader, network, nowMs);
  const blockNumber = reader.status(network).indexedBlock ?? 0n;
  const state = `${blockNumber}:${now}`;
  let kept = keptByReader.get(reader);
  if (kept === undefined) {
    kept = new Map();
    keptByReader.set(reader, kept);
  }
  let entry = kept.get(network);
  if (entry === undefined) {
    entry = { state, reads: new Map(), running: new Map() };
    kept.set(network, entry);
  } else if (entry.state !== state) {
    entry.state = state;
    entry.reads = new Map();
  }
  const key = subjectKey(request);
  const known = entry.reads.get(key) ?? entry.running.get(key);
  if (known !== undefined) return known;
  const read = readMarketStats(reader, request, now, blockNumber);
  const { reads, running } = entry;
  running.set(key, read);
  const settled = () => {
    if (running.get(key) === read) running.delete(key);
  };
  read.then(settled, settled);
  if (reads.size < MAX_KEPT) {
    reads.set(key, read);
    // A failed read is not remembered: the next request tries again.
    read.catch(() => reads.delete(key));
  }
  return read;
}

async function readMarketStats(
  reader: MarketState & MarketHistory,
  { network, subject, withNative }: MarketStatsSubject,
  now: number,
  maxBlock: bigint,
): Promise<MarketStatsData> {
  const starts = STATS_WINDOWS.map((window) => now - window.seconds);
  const priceAt = (beforeTimestamp: number) =>
    reader.getLastPrice(network, { subject, withNative, beforeTimestamp, maxBlock });
  const [totals, price, ...openPrices] = await Promise.all([
    reader.getTradeStats(network, {
      subject,
      withNative,
      fromTimestamps: starts,
      toTimestamp: now,
      maxBlock,
    }),
    priceAt(now),
    ...starts.map(priceAt),
  ]);
  return {
    asOf: now,
    blockNumber: maxBlock,
    price,
    windows: starts.map((from, i) => ({ from, openPrice: openPrices[i], totals: totals[i]! })),
  };
}

/** MarketStats as the schema shows it; `formatPrice` renders the series' prices. */
export function formatMarketStats(data: MarketStatsData, formatPrice: (price: bigint) => string) {
  const price = (value: bigint | undefined) => (value === undefined ? null : formatPrice(value));
  const windows = STATS_WINDOWS.map((window, i) => {
    const { from, openPrice, totals } = data.windows[i]!;
    return [
      window.field,
      {
        window: window.name,
        from,
        to: data.asOf,
        openPrice: price(openPrice),
        priceChangePercentage: priceChangePercentage(openPrice, data.price),
        buys: totals.buys,
        sells: totals.sells,
        buyers: totals.buyers,
        sellers: totals.sellers,
        volumeUSD: formatDecimal(totals.volumeUsd, 18),
      },
    ] as const;
  });
  return {
    asOf: data.asOf,
    blockNumber: data.blockNumber,
    price: price(data.price),
    ...Object.fromEntries(windows),
  };
}

/** The token series of a token address: the native coin ("") and its wrapped token are one series. */
export function tokenStatsSubject(
  reader: MarketState & MarketHistory,
  network: NetworkName,
  address: string,
): MarketStatsSubject {
  const wrapped = reader.getConfig(network).native.wrapped;
  const token = (address === "" ? wrapped : address) as Address;
  return { network, subject: { kind: "token", token }, withNative: token === wrapped };
}
