import { formatDecimal } from "../../domain/formatDecimal.js";

/** A token of a listed pool. */
export interface ListedToken {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
}

/** One indexed pool as the listing formats show it: base = token0, target (quote) = token1. */
export interface ListedMarket {
  pool: string;
  /** ticker_id / market pair: base_target, or base_target_pool where other pools hold the same tokens (pairIdsOf). */
  pairId: string;
  base: ListedToken;
  target: ListedToken;
  /**
   * token1 per whole token0 of the pool's newest trade (Pool.lastTradePrice); the pool's state
   * price (Pool.orderBook.midPrice: reserves or sqrtPriceX96) at the indexed block when the stored
   * window holds no trade.
   */
  lastPrice: string;
  /** token0 (whole tokens) swapped through the pool over the rolling 24 hours (Pool.volumeToken0_24h). */
  baseVolume: string;
  /** token1 (whole tokens) likewise (Pool.volumeToken1_24h). */
  targetVolume: string;
  /** Highest and lowest executed price of the window's swaps; absent without a priced swap. */
  high?: string;
  low?: string;
  /** Pool.priceChangePercentage24h; absent when either price is unknown. */
  priceChange24h?: string;
  /** Pool.liquidityUSD, "0" when neither token has a USD price. */
  liquidityUsd: string;
  /** Pool.orderBook's best prices: the first unit bought from / sold to the pool, fee included. */
  lowestAsk: string;
  highestBid: string;
}

/*
 * The listing formats' bodies from the listed markets (pure). Base = the pool's token0, target
 * (CoinMarketCap: quote) = token1, prices in token1 per whole token0; a pair is one pool, named
 * base_target by contract addresses, or base_target_pool where a pair of tokens has several pools
 * (DEXes, fee tiers): ListedMarket.pairId.
 */

/** The pair's id in every format (ListedMarket.pairId). */
function tickerIdOf(market: Pick<ListedMarket, "pairId">): string {
  return market.pairId;
}

/** CoinGecko /pairs. */
export function buildCoingeckoPairs(markets: ListedMarket[]): unknown {
  return markets.map((market) => ({
    ticker_id: tickerIdOf(market),
    base: market.base.address,
    target: market.target.address,
    pool_id: market.pool,
  }));
}

/** CoinGecko /tickers; bid and ask are the prices of the first unit sold to and bought from the pool. */
export function buildCoingeckoTickers(markets: ListedMarket[]): unknown {
  return markets.map((market) => ({
    ticker_id: tickerIdOf(market),
    base_currency: market.base.address,
    target_currency: market.target.address,
    pool_id: market.pool,
    last_price: market.lastPrice,
    base_volume: market.baseVolume,
    target_volume: market.targetVolume,
    liquidity_in_usd: market.liquidityUsd,
    bid: market.highestBid,
    ask: market.lowestAsk,
    ...(market.high === undefined ? {} : { high: market.high }),
    ...(market.low === undefined ? {} : { low: market.low }),
  }));
}

/** CoinMarketCap summary; lowest_ask and highest_bid are the first unit's prices (fee included). */
export function buildCmcSummary(markets: ListedMarket[]): unknown {
  return markets.map((market) => ({
    trading_pairs: tickerIdOf(market),
    base_currency: market.base.address,
    quote_currency: market.target.address,
    last_price: market.lastPrice,
    lowest_ask: market.lowestAsk,
    highest_bid: market.highestBid,
    base_volume: market.baseVolume,
    quote_volume: market.targetVolume,
    ...(market.priceChange24h === undefined ? {} : { price_change_percent_24h: market.priceChange24h }),
    ...(market.high === undefined ? {} : { highest_price_24h: market.high }),
    ...(market.low === undefined ? {} : { lowest_price_24h: market.low }),
  }));
}

/** CoinMarketCap assets: each token of a listed pool, keyed by its contract address. */
export function buildCmcAssets(markets: ListedMarket[]): unknown {
  const assets: Record<string, { name: string; symbol: string; id: string }> = {};
  for (const market of markets) {
    for (const token of [market.base, market.target]) {
      assets[token.address] ??= { name: token.name, symbol: token.symbol, id: token.address };
    }
  }
  return assets;
}

/** CoinMarketCap ticker, keyed by the pair's id. */
export function buildCmcTicker(markets: ListedMarket[]): unknown {
  const ticker: Record<string, unknown> = {};
  for (const market of markets) {
    ticker[tickerIdOf(market)] = {
      base_id: market.base.address,
      base_name: market.base.name,
      base_symbol: market.base.symbol,
      quote_id: market.target.address,
      quote_name: market.target.name,
      quote_symbol: market.target.symbol,
      last_price: market.lastPrice,
      base_volume: market.baseVolume,
      quote_volume: market.targetVolume,
    };
  }
  return ticker;
}

/** A side of a listing order book: [price, token0 in whole tokens] per level of Pool.orderBook. */
export function buildBookSide(
  levels: readonly { price: string; amount0: string }[],
  decimals0: number,
): string[][] {
  return levels.map((level) => [level.price, formatDecimal(BigInt(level.amount0), decimals0)]);
}
