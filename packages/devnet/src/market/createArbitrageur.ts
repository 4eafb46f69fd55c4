import type { Address } from "viem";
import type { DevnetToken } from "../devnetTypes.js";
import type { MirroredPool, MirrorPoolSpec, PoolMirror } from "./createPoolMirror.js";
import type { ReferencePrices } from "./createReferencePrices.js";
import type { PlannedTrade } from "./createTradeGenerator.js";

/** An account that trades pools back toward the reference prices, as arbitrage bots do on real chains. */
export interface Arbitrageur {
  readonly account: Address;
  /**
   * Keeps `pool` within its fee band from `fromTimestamp` on (default: at once); a pool created
   * off the market is thus arbitraged later. Both tokens must be listed tokens with a reference
   * price, else the pool is ignored. Returns whether the pool is watched.
   */
  watch(pool: MirrorPoolSpec, fromTimestamp?: number): boolean;
  /**
   * The trades that bring every watched pool whose price left its fee band around the reference
   * back inside it at `timestamp`, computed from the mirror's reserves and applied to it.
   */
  plan(timestamp: number): PlannedTrade[];
}

/** Options of an arbitrageur. */
export interface ArbitrageurOptions {
  account: Address;
  mirror: PoolMirror;
  reference: ReferencePrices;
}

// A pool is traded once its price is off the reference by more than the fee (no-arbitrage
// band) plus this margin, which only keeps dust trades away.
const TRIGGER_MARGIN = 0.0001;
const SCALE = 1_000_000_000_000;
// Trades worth less than this (USD, 10^18-scaled) are not worth a transaction.
const MIN_TRADE_USD = 10n ** 18n;

/**
 * Creates an arbitrageur over a pool mirror. Each pool is compared with the reference ratio of
 * its two tokens; one that drifted out of its band gets the single exact-input swap that moves
 * its mid price back to the reference (closed form of the constant-product math with the fee),
 * so cross-DEX prices and stablecoin pools stay within their fee bands.
 */
export function createArbitrageur(options: ArbitrageurOptions): Arbitrageur {
  const { account, mirror, reference } = options;
  const watched = new Map<Address, number>();
  // Listed only: an unlisted token may well carry a listed token's symbol.
  const hasReference = (token: DevnetToken) => token.listed && reference.at(token.symbol, 0) !== undefined;

  return {
    account,
    watch(spec, fromTimestamp = 0) {
      if (!hasReference(spec.a) || !hasReference(spec.b)) return false;
      mirror.add(spec);
      watched.set(spec.address, fromTimestamp);
      return true;
    },
    plan(timestamp) {
      const trades: PlannedTrade[] = [];
      for (const [address, from] of watched) {
        if (timestamp < from) continue;
        const pool = mirror.get(address);
        const trade = pool === undefined ? undefined : arbitrage(pool, account, reference, timestamp);
        if (trade === undefined || pool === undefined) continue;
        mirror.apply(trade, pool.router);
        trades.push(trade);
      }
      return trades;
    },
  };
}

/** The swap that brings one pool back into its band, or undefined when it is inside. */
function arbitrage(
  pool: MirroredPool,
  account: Address,
  reference: ReferencePrices,
  timestamp: number,
): PlannedTrade | undefined {
  const price0 = reference.at(pool.token0.symbol, timestamp);
  const price1 = reference.at(pool.token1.symbol, timestamp);
  if (price0 === undefined || price1 === undefined || pool.reserve0 === 0n || pool.reserve1 === 0n)
    return undefined;
  // Both sides' USD value at the reference: equal when the pool's price is the reference's.
  const usd0 = (pool.reserve0 * price0) / 10n ** BigInt(pool.token0.decimals);
  const usd1 = (pool.reserve1 * price1) / 10n ** BigInt(pool.token1.decimals);
  if (usd0 === 0n || usd1 === 0n) return undefined;
  const gamma = 1 - pool.feeBps / 10_000;
  // How much the pool overprices token0 relative to the reference (1 = on the reference).
  const ratio = Number(usd1) / Number(usd0);
  let sellZero: boolean;
  let excess: number;
  if (ratio > (1 + TRIGGER_MARGIN) / gamma) {
    sellZero = true;
    excess = ratio;
  } else if (ratio < gamma * (1 - TRIGGER_MARGIN)) {
    sellZero = false;
    excess = 1 / ratio;
  } else {
    return undefined;
  }
  // Selling x of a side with reserve r scales the mispricing by r^2 / ((r + gamma x)(r + x)):
  // the x that brings it back to 1 solves a quadratic. Trading back to the reference rather than
  // to the band's edge (where a profit-maximizing bot stops) halves how often a drifting
  // reference needs a trade, and the demo builds faster for it.
  const b = 1 + gamma;
  const share = (-b + Math.sqrt(b * b + 4 * gamma * (excess - 1))) / (2 * gamma);
  if (!(share > 0)) return undefined;
  const [tokenIn, tokenOut, reserveIn, priceIn] = sellZero
    ? [pool.token0, pool.token1, pool.reserve0, price0]
    : [pool.token1, pool.token0, pool.reserve1, price1];
  const amountIn = (reserveIn * BigInt(Math.floor(share * SCALE))) / BigInt(SCALE);
  if ((amountIn * priceIn) / 10n ** BigInt(tokenIn.decimals) < MIN_TRADE_USD) return undefined;
  return {
    trader: account,
    dex: 0,
    router: pool.router,
    kind: "tokensForTokens",
    path: [tokenIn, tokenOut],
    amountIn,
  };
}
