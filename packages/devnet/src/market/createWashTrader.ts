import type { Address } from "viem";
import type { Prng } from "../createPrng.js";
import type { DevnetToken } from "../devnetTypes.js";
import type { MirroredPool, PoolMirror } from "./createPoolMirror.js";
import type { PlannedTrade } from "./createTradeGenerator.js";

/** An account that churns one tiny pool of an unlisted token with huge notional amounts. */
export interface WashTrader {
  readonly account: Address;
  readonly pool: MirroredPool;
  /**
   * One round trip, applied to the mirror: sells hundreds of times the pool's reserve of the
   * unlisted token, then buys it back with exactly what that sale paid.
   */
  plan(): PlannedTrade[];
}

/** Options of a wash trader. */
export interface WashTraderOptions {
  account: Address;
  mirror: PoolMirror;
  /** The pool it churns: one side is an unlisted token, the other is what it is "worth" in. */
  pool: MirroredPool;
  prng: Prng;
}

/**
 * Creates a wash trader. Measured in the unlisted token at the pool's own price each trade is
 * worth hundreds of times the pool, while only the pool's few dollars of the priced side move:
 * what a volume guard must see through.
 */
export function createWashTrader(options: WashTraderOptions): WashTrader {
  const { account, mirror, pool, prng } = options;
  const [churned, paid]: [DevnetToken, DevnetToken] = pool.token0.listed
    ? [pool.token1, pool.token0]
    : [pool.token0, pool.token1];
  return {
    account,
    pool,
    plan() {
      const reserve = churned.address === pool.token0.address ? pool.reserve0 : pool.reserve1;
      if (reserve === 0n) return [];
      const sell: PlannedTrade = {
        trader: account,
        dex: 0,
        router: pool.router,
        kind: "tokensForTokens",
        path: [churned, paid],
        amountIn: reserve * BigInt(prng.int(200, 2000)),
      };
      const received = mirror.apply(sell, pool.router)?.at(-1) ?? 0n;
      if (received === 0n) return [sell];
      const buyBack: PlannedTrade = { ...sell, path: [paid, churned], amountIn: received };
      mirror.apply(buyBack, pool.router);
      return [sell, buyBack];
    },
  };
}
