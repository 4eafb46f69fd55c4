import type { Address, NetworkName, Trade } from "../../domain/types.js";
import { UnprocessableError } from "../../errors.js";
import { assertNetworkReady } from "../assertNetworkReady.js";
import { poolPassesOf } from "../poolPassesOf.js";
import type { MarketReader } from "../types.js";
import { type AnswerFreshness, answerFreshness } from "./answerFreshness.js";
import {
  buildPoolTrade,
  type PoolSwapNode,
  type PoolTrade,
  renderCmcTrade,
  renderCoingeckoTrade,
} from "./buildPoolTrade.js";
import { wrongPairId } from "./parsePairId.js";
import { tokenOf } from "./readListedMarkets.js";
import { resolvePairPool } from "./resolvePairPool.js";

/** Trades read from the store per page (Query.poolSwaps' largest page). */
const TRADES_PAGE = 1_000;
const DAY = 86_400;

/**
 * What a pool's trades are read with: the pinned block, the pool and its tokens' decimals.
 * @internal exported for tests, which compare its pages with the GraphQL reference.
 */
export interface PoolTradeSource {
  networkStatus: AnswerFreshness;
  /** The start of the stored history (unix seconds): NetworkStatus.historyFrom. */
  historyFrom: number;
  /** Pages of trades of [from, to) (unix seconds), oldest first, at the pinned block. */
  pages: (from: number, to: number | null) => AsyncGenerator<PoolTrade[]>;
}

/** A swap's passes through `pool` as the pool trades' rows read them (GraphQL PoolSwap's fields). */
function poolSwapNodesOf(trade: Trade, pool: Address): PoolSwapNode[] {
  return poolPassesOf(trade, pool).map((pass) => ({
    blockNumber: trade.blockNumber.toString(),
    logIndex: trade.logIndex,
    timestamp: trade.timestamp,
    hop: pass.hop,
    zeroForOne: pass.zeroForOne,
    amount0: pass.amount0.toString(),
    amount1: pass.amount1.toString(),
  }));
}

/**
 * Opens a pool's trades by its pair id (`param` names the parameter in errors): 400 for an id
 * that names no indexed pool (base_target or base_target_pool), 503 when the network does not
 * serve at `nowMs` (checked again per page, as each page is read).
 * @internal exported for tests, which compare its pages with the GraphQL reference.
 */
export async function openPoolTrades(
  reader: MarketReader,
  network: NetworkName,
  args: { pairId: string; param: string; nowMs: number },
): Promise<PoolTradeSource> {
  const { pairId, param, nowMs } = args;
  const { base, target, pool } = resolvePairPool(reader, network, pairId, param, nowMs);
  assertNetworkReady(reader, network, nowMs);
  const networkStatus = answerFreshness(reader, network, nowMs);
  const found = reader.getPoolIndex(network).get(pool);
  if (found === undefined || found.token0 !== base || found.token1 !== target) throw wrongPairId(param);
  const d0 = (await tokenOf(reader, network, found.token0)).decimals;
  const d1 = (await tokenOf(reader, network, found.token1)).decimals;
  const atBlock = reader.status(network).indexedBlock;

  async function* pages(from: number, to: number | null): AsyncGenerator<PoolTrade[]> {
    let after: Trade | undefined;
    for (;;) {
      assertNetworkReady(reader, network, nowMs);
      const trades = await reader.listTrades(network, {
        // Block timestamps never decrease along the chain: the last trade's narrows the read.
        fromTimestamp: after === undefined ? from : Math.max(from, after.timestamp),
        limit: TRADES_PAGE + 1,
        ...(to === null ? {} : { toTimestamp: to }),
        ...(after === undefined
          ? {}
          : { after: { blockNumber: after.blockNumber, txIndex: after.txIndex, logIndex: after.logIndex } }),
        ...(atBlock === undefined ? {} : { maxBlock: atBlock }),
        pool,
      });
      const page = trades.slice(0, TRADES_PAGE);
      yield page.flatMap((trade) => poolSwapNodesOf(trade, pool)).map((node) => buildPoolTrade(node, d0, d1));
      if (trades.length <= TRADES_PAGE) return;
      after = page.at(-1);
    }
  }
  const historyFrom = Math.floor(nowMs / 1000) - reader.getConfig(network).windowDays * DAY;
  return { networkStatus, historyFrom, pages };
}

/** A pool-trades answer: its freshness, the headers it adds, and its body in pieces. */
export interface PoolTradesAnswer {
  networkStatus: AnswerFreshness;
  /** X-History-From when the range asked starts before the stored history. */
  headers: Record<string, string>;
  /** The body, the first page already read (so a refusal came before any byte). */
  body: AsyncGenerator<Buffer>;
}

/** `first` (already read), then the rest of `pages`. */
async function* resumed(first: PoolTrade[], rest: AsyncGenerator<PoolTrade[]>): AsyncGenerator<PoolTrade[]> {
  yield first;
  yield* rest;
}

/** The pages of [from, to), the first read now. */
async function readFirst(source: PoolTradeSource, from: number, to: number | null) {
  const pages = source.pages(from, to);
  const first = await pages.next();
  return resumed(first.done === true ? [] : first.value, pages);
}

/** JSON array items of `pages`, each trade rendered by `render` when `keep` holds. */
async function* arrayItems(
  pages: AsyncIterable<PoolTrade[]>,
  render: (trade: PoolTrade) => string,
  keep: (trade: PoolTrade) => boolean = () => true,
): AsyncGenerator<Buffer> {
  let first = true;
  for await (const page of pages) {
    const items = page.filter(keep).map(render);
    if (items.length === 0) continue;
    yield Buffer.from(`${first ? "" : ","}${items.join(",")}`);
    first = false;
  }
}

async function* concat(...parts: (string | AsyncIterable<Buffer>)[]): AsyncGenerator<Buffer> {
  for (const part of parts) {
    if (typeof part === "string") yield Buffer.from(part);
    else yield* part;
  }
}

/**
 * CoinMarketCap's trades of a market pair: the pool's trades of the last 24 hours, oldest first,
 * read page by page at the block the answer started at.
 */
export async function readCmcTrades(
  reader: MarketReader,
  network: NetworkName,
  args: { marketPair: string; nowMs: number },
): Promise<PoolTradesAnswer> {
  const { nowMs } = args;
  const source = await openPoolTrades(reader, network, {
    pairId: args.marketPair,
    param: "market_pair",
    nowMs,
  });
  const trades = await readFirst(source, Math.floor(nowMs / 1000) - DAY, null);
  return {
    networkStatus: source.networkStatus,
    headers: {},
    body: concat("[", arrayItems(trades, renderCmcTrade), "]"),
  };
}

/**
 * CoinGecko's historical trades of a ticker: buy and sell arrays of the trades of [start, end]
 * (unix ms, inclusive; default: the whole stored history), only one `type` when asked, the newest
 * `limit` (0: every one, streamed in two passes over the same pinned block). 422 when the range
 * ends before the stored history; a range that starts before it is answered from its start, and
 * says so (X-History-From).
 */
export async function readHistoricalTrades(
  reader: MarketReader,
  network: NetworkName,
  args: {
    tickerId: string;
    limit: number;
    startMs: number | undefined;
    endMs: number | undefined;
    type: "buy" | "sell" | undefined;
    nowMs: number;
  },
): Promise<PoolTradesAnswer> {
  const { limit, startMs, endMs, type } = args;
  const source = await openPoolTrades(reader, network, {
    pairId: args.tickerId,
    param: "ticker_id",
    nowMs: args.nowMs,
  });
  const { historyFrom, networkStatus } = source;
  // Whole seconds: block times are. start inclusive (rounded up), end inclusive (to the next second).
  const from = startMs === undefined ? historyFrom : Math.ceil(startMs / 1000);
  const to = endMs === undefined ? null : Math.floor(endMs / 1000) + 1;
  if (to !== null && to <= historyFrom) {
    throw new UnprocessableError(
      `end_time is before the stored history, which starts at ${historyFrom} (unix seconds, ${new Date(historyFrom * 1000).toISOString()}): no trade of that range is held.`,
    );
  }
  const headers: Record<string, string> = from < historyFrom ? { "X-History-From": String(historyFrom) } : {};
  const trades = await readFirst(source, from, to);
  if (limit > 0) {
    // The newest `limit` trades (of `type`), oldest first.
    const kept: PoolTrade[] = [];
    for await (const page of trades) {
      for (const trade of page) if (type === undefined || trade.type === type) kept.push(trade);
      if (kept.length > limit) kept.splice(0, kept.length - limit);
    }
    const side = (t: string) =>
      kept
        .filter((trade) => trade.type === t)
        .map(renderCoingeckoTrade)
        .join(",");
    return { networkStatus, headers, body: concat(`{"buy":[${side("buy")}],"sell":[${side("sell")}]}`) };
  }
  // Two passes, buys then sells, over the same pinned block.
  const pass = (side: "buy" | "sell") =>
    type !== undefined && type !== side
      ? ""
      : arrayItems(
          side === "buy" ? trades : source.pages(from, to),
          renderCoingeckoTrade,
          (t) => t.type === side,
        );
  return { networkStatus, headers, body: concat('{"buy":[', pass("buy"), '],"sell":[', pass("sell"), "]}") };
}
