import { formatDecimal } from "../../domain/formatDecimal.js";
import { formatPoolPrice } from "../../domain/formatPoolPrice.js";
import type { Address, NetworkName, Token } from "../../domain/types.js";
import { buildOrderBook } from "../../pricing/buildOrderBook.js";
import type { OrderBook } from "../../pricing/orderBookTypes.js";
import type { PoolState } from "../../pricing/types.js";
import { assertNetworkReady } from "../assertNetworkReady.js";
import { getPoolLiquidityUsd } from "../getPoolLiquidityUsd.js";
import { getPoolPrices, type PoolPrices } from "../getPoolPrices.js";
import { getRollingPoolDay, type RollingPoolDay } from "../getRollingPoolDay.js";
import type { MarketReader } from "../types.js";
import { type AnswerFreshness, answerFreshness } from "./answerFreshness.js";
import type { ListedMarket, ListedToken } from "./buildListingBodies.js";
import { pairIdsOf } from "./parsePairId.js";

const USD_DECIMALS = 18;
/** The listings' book shape: no levels, the best prices only (Pool.orderBook's default range, 2%). */
const BEST_PRICES = { levels: 0, rangePpm: 20_000 };

/** A token's metadata: known from indexing, else read once (the rare fallback, as GraphQL's loader does). */
export async function tokenOf(reader: MarketReader, network: NetworkName, address: Address): Promise<Token> {
  return reader.getToken(network, address) ?? (await reader.resolveTokenAddress(network, address));
}

/** One pool with a state price as the listings show it. */
async function listedMarket(
  reader: MarketReader,
  network: NetworkName,
  at: {
    pool: PoolState;
    book: OrderBook;
    pairId: string;
    day: RollingPoolDay;
    prices: PoolPrices | undefined;
  },
): Promise<ListedMarket> {
  const { pool, book, pairId, day, prices } = at;
  const [token0, token1] = await Promise.all([
    tokenOf(reader, network, pool.token0),
    tokenOf(reader, network, pool.token1),
  ]);
  const listed = (token: Token): ListedToken => ({
    address: token.address,
    name: token.name,
    symbol: token.symbol,
    decimals: token.decimals,
  });
  const price = (raw: bigint) => formatPoolPrice(raw, token0.decimals, token1.decimals);
  const last = prices?.last;
  const change = prices?.change24h ?? null;
  const swaps = day.totals.get(pool.address);
  const liquidity = getPoolLiquidityUsd(reader, network, pool);
  return {
    pool: pool.address,
    pairId,
    base: listed(token0),
    target: listed(token1),
    lastPrice: price(last ?? book.mid),
    liquidityUsd: liquidity === undefined ? "0" : formatDecimal(liquidity, USD_DECIMALS),
    baseVolume: formatDecimal(swaps?.volume0 ?? 0n, token0.decimals),
    targetVolume: formatDecimal(swaps?.volume1 ?? 0n, token1.decimals),
    ...(swaps?.high === undefined ? {} : { high: price(swaps.high) }),
    ...(swaps?.low === undefined ? {} : { low: price(swaps.low) }),
    ...(change === null ? {} : { priceChange24h: change }),
    lowestAsk: price(book.bestAsk),
    highestBid: price(book.bestBid),
  };
}

/**
 * Every indexed pool of `network` with a price, as the listing endpoints show it, by address: state
 * and liquidity from memory; token volumes and price range over the rolling 24 hours up to the
 * indexed block's time, every pool's from one grouped read of the window's Swap logs
 * (getRollingPoolDay); last and 24-hour prices of every pool from one grouped last-price read
 * (getPoolPrices: a fixed number of statements, not three look-ups a pool). 503 when the network
 * does not serve at `nowMs`.
 */
export async function readListedMarkets(
  reader: MarketReader,
  network: NetworkName,
  nowMs: number,
): Promise<{ markets: ListedMarket[]; networkStatus: AnswerFreshness }> {
  assertNetworkReady(reader, network, nowMs);
  const networkStatus = answerFreshness(reader, network, nowMs);
  const now = Math.floor(nowMs / 1000);
  const pools = [...reader.getPoolIndex(network).all()].sort((a, b) => (a.address < b.address ? -1 : 1));
  const pairIds = pairIdsOf(pools);
  // An empty pool (no state price) is not listed.
  const priced = pools.flatMap((pool) => {
    const book = buildOrderBook(pool, BEST_PRICES);
    return book === undefined ? [] : [{ pool, book }];
  });
  const day = await getRollingPoolDay(reader, network, now);
  const prices = await getPoolPrices(
    reader,
    network,
    priced.map(({ pool }) => pool.address),
    now,
  );
  const markets = await Promise.all(
    priced.map(({ pool, book }) =>
      listedMarket(reader, network, {
        pool,
        book,
        pairId: pairIds.get(pool.address)!,
        day,
        prices: prices.get(pool.address),
      }),
    ),
  );
  return { markets, networkStatus };
}
