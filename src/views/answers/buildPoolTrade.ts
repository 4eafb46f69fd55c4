import { formatDecimal } from "../../domain/formatDecimal.js";
import { formatPoolRatio } from "../../domain/formatPoolPrice.js";

/** One pass of a swap through the pool, as the listing formats show a trade (base = token0). */
export interface PoolTrade {
  /** blockNumber x 2^20 + logIndex x 16 + hop: unique per pass, increasing in chain order. */
  tradeId: number;
  /** token1 per whole token0, executed. */
  price: string;
  baseVolume: string;
  targetVolume: string;
  timestampMs: number;
  /** buy: token0 came out of the pool (the trader bought the base); sell: it went in. */
  type: "buy" | "sell";
}

/** A swap's pass through a pool as the pool trades operation reads it (GraphQL PoolSwap). */
export interface PoolSwapNode {
  blockNumber: string;
  logIndex: number;
  timestamp: number;
  hop: number;
  zeroForOne: boolean;
  amount0: string;
  amount1: string;
}

/** A pool's swap as the listing formats show a trade: its id, executed price and amounts in whole tokens. */
export function buildPoolTrade(node: PoolSwapNode, decimals0: number, decimals1: number): PoolTrade {
  const amount0 = BigInt(node.amount0);
  const amount1 = BigInt(node.amount1);
  return {
    tradeId: Number(BigInt(node.blockNumber) * 1_048_576n) + node.logIndex * 16 + node.hop,
    price: amount0 === 0n ? "0" : formatPoolRatio(amount1, amount0, decimals0, decimals1),
    baseVolume: formatDecimal(amount0, decimals0),
    targetVolume: formatDecimal(amount1, decimals1),
    timestampMs: node.timestamp * 1000,
    type: node.zeroForOne ? "sell" : "buy",
  };
}

/** A trade as CoinMarketCap's /trades shows it, JSON text. */
export const renderCmcTrade = (t: PoolTrade) =>
  JSON.stringify({
    trade_id: t.tradeId,
    price: t.price,
    base_volume: t.baseVolume,
    quote_volume: t.targetVolume,
    timestamp: t.timestampMs,
    type: t.type,
  });

/** A trade as CoinGecko's /historical_trades shows it, JSON text. */
export const renderCoingeckoTrade = (t: PoolTrade) =>
  JSON.stringify({
    trade_id: t.tradeId,
    price: t.price,
    base_volume: t.baseVolume,
    target_volume: t.targetVolume,
    trade_timestamp: t.timestampMs,
    type: t.type,
  });
