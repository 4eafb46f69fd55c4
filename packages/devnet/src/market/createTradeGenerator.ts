import type { Address } from "viem";
import type { Prng } from "../createPrng.js";
import type { DevnetMarket, DevnetPool, DevnetToken } from "../devnetTypes.js";
import { usdToUnits } from "../usdToUnits.js";

/** Which router function a trade calls. */
type TradeKind = "tokensForTokens" | "ethForTokens" | "tokensForEth";

/** One swap a trader will send through a router. */
export interface PlannedTrade {
  trader: Address;
  dex: 0 | 1;
  /** The router to call instead of the DEX's (a pool of another deployment, e.g. created later). */
  router?: Address;
  kind: TradeKind;
  /** Router path; for the native-coin kinds it starts or ends with the wrapped native. */
  path: DevnetToken[];
  amountIn: bigint;
}

/** Draws trades one after the other from a seeded generator. */
export interface TradeGenerator {
  /** The next trade; `sizeFactor` scales its USD size (e.g. a busy day trades bigger). */
  next(sizeFactor?: number): PlannedTrade;
}

interface Route {
  dex: 0 | 1;
  tokens: DevnetToken[];
  pools: DevnetPool[];
  /** Weight in random choice: deeper routes are traded more. */
  weight: number;
}

// Share of each kind of trade; the rest of the market's flow is plain direct swaps.
const KIND_WEIGHTS = { direct: 0.44, multiHop: 0.2, ethIn: 0.15, ethOut: 0.15, thin: 0.02, unlisted: 0.04 };
const KINDS = Object.keys(KIND_WEIGHTS) as (keyof typeof KIND_WEIGHTS)[];
const FIRST_DEX_SHARE = 0.7;
// A trade takes at most this share of the shallowest pool on its route, so prices stay near the seed.
const MAX_POOL_SHARE = 0.015;

/**
 * Creates a generator of realistic trades over a deployed market: direct swaps, multi-hop
 * routes of 3-4 tokens, native-coin swaps both ways, a few tiny trades on the thin pool and on
 * the unlisted tokens' pools. Every trader trades at least once within the first `traders.length`
 * trades; after that some traders are busier than others.
 */
export function createTradeGenerator(
  market: DevnetMarket,
  traders: readonly Address[],
  prng: Prng,
): TradeGenerator {
  if (traders.length === 0) throw new Error("devnet: no traders");
  const routes = buildRoutes(market);
  const byKind = {
    direct: routes.filter((r) => r.tokens.length === 2),
    multiHop: routes.filter((r) => r.tokens.length >= 3),
    ethIn: routes.filter((r) => r.tokens.length <= 3 && r.tokens[0]?.isWrappedNative === true),
    ethOut: routes.filter((r) => r.tokens.length <= 3 && r.tokens.at(-1)?.isWrappedNative === true),
  };
  const thinPools = market.pools.filter((p) => p.thin);
  const unlistedPools = market.pools.filter((p) => p.unlisted && !p.thin);

  const firstRound = shuffle([...traders], prng);
  const busyOrder = shuffle([...traders], prng);
  const busyWeights = busyOrder.map((_, i) => 1 / Math.sqrt(i + 1));
  let drawn = 0;
  const pickTrader = (): Address =>
    drawn < firstRound.length
      ? (firstRound[drawn++] as Address)
      : (busyOrder[prng.weighted(busyWeights)] as Address);

  const pickRoute = (candidates: Route[]): Route => {
    const dex: 0 | 1 = prng.chance(FIRST_DEX_SHARE) ? 0 : 1;
    const onDex = candidates.filter((r) => r.dex === dex);
    const pool = onDex.length > 0 ? onDex : candidates;
    return pool[prng.weighted(pool.map((r) => r.weight))] as Route;
  };

  return {
    next(sizeFactor = 1) {
      const trader = pickTrader();
      const kind = KINDS[prng.weighted(KINDS.map((k) => KIND_WEIGHTS[k]))] ?? "direct";
      if ((kind === "thin" && thinPools.length > 0) || (kind === "unlisted" && unlistedPools.length > 0)) {
        const pool = prng.pick(kind === "thin" ? thinPools : unlistedPools);
        const forward = prng.chance(0.5);
        const tokens = forward ? [pool.a, pool.b] : [pool.b, pool.a];
        const route: Route = { dex: pool.dex, tokens, pools: [pool], weight: 1 };
        const tradeKind: TradeKind = tokens[0]?.isWrappedNative
          ? prng.chance(0.7)
            ? "ethForTokens"
            : "tokensForTokens"
          : tokens[1]?.isWrappedNative && prng.chance(0.7)
            ? "tokensForEth"
            : "tokensForTokens";
        return plan(trader, tradeKind, route, tinyOrSmallUsd(pool, prng));
      }
      switch (kind) {
        case "ethIn":
          return plan(trader, "ethForTokens", pickRoute(byKind.ethIn), sizeUsd(prng, sizeFactor));
        case "ethOut":
          return plan(trader, "tokensForEth", pickRoute(byKind.ethOut), sizeUsd(prng, sizeFactor));
        case "multiHop":
          // A one-pair market has no multi-hop route: its share trades directly.
          return plan(
            trader,
            "tokensForTokens",
            pickRoute(byKind.multiHop.length > 0 ? byKind.multiHop : byKind.direct),
            sizeUsd(prng, sizeFactor),
          );
        default:
          return plan(trader, "tokensForTokens", pickRoute(byKind.direct), sizeUsd(prng, sizeFactor));
      }
    },
  };
}

function plan(trader: Address, kind: TradeKind, route: Route, usd: number): PlannedTrade {
  let capUsd = Number.POSITIVE_INFINITY;
  for (const pool of route.pools) capUsd = Math.min(capUsd, Number(pool.tvlUsd) * MAX_POOL_SHARE);
  const first = route.pools[0] as DevnetPool;
  const tokenIn = route.tokens[0] as DevnetToken;
  const usdE18 = BigInt(Math.max(1, Math.round(Math.min(usd, capUsd) * 1e6))) * 10n ** 12n;
  const amountIn = usdToUnits(usdE18, priceInPool(first, tokenIn), tokenIn.decimals);
  return { trader, dex: route.dex, kind, path: route.tokens, amountIn: amountIn > 0n ? amountIn : 1n };
}

/** The thin pool prices its token far off the market: size trades at the pool's own price. */
function priceInPool(pool: DevnetPool, token: DevnetToken): bigint {
  return pool.priceAE18 !== undefined && token.address === pool.a.address ? pool.priceAE18 : token.priceE18;
}

/** Log-normal trade size around a few hundred dollars, with the odd whale. */
function sizeUsd(prng: Prng, factor: number): number {
  return Math.min(250_000, Math.max(5, Math.exp(Math.log(600) + 1.3 * prng.normal()) * factor));
}

function tinyOrSmallUsd(pool: DevnetPool, prng: Prng): number {
  // Pools of a few dozen dollars get trades of cents to two dollars, so they stay thin but alive.
  return pool.tvlUsd < 1000n ? 0.2 + 1.8 * prng.next() : sizeUsd(prng, 0.5);
}

/** Every simple path of 2-4 tokens over each DEX's regular pools (thin and unlisted ones left out). */
function buildRoutes(market: DevnetMarket): Route[] {
  const routes: Route[] = [];
  for (const dex of [0, 1] as const) {
    const pools = market.pools.filter((p) => p.dex === dex && !p.thin && !p.unlisted);
    const edges = new Map<string, { pool: DevnetPool; to: DevnetToken }[]>();
    const addEdge = (from: DevnetToken, to: DevnetToken, pool: DevnetPool) => {
      const list = edges.get(from.address) ?? [];
      list.push({ pool, to });
      edges.set(from.address, list);
    };
    for (const pool of pools) {
      addEdge(pool.a, pool.b, pool);
      addEdge(pool.b, pool.a, pool);
    }
    const walk = (tokens: DevnetToken[], used: DevnetPool[]) => {
      if (tokens.length >= 2) {
        let minTvl = Number.POSITIVE_INFINITY;
        for (const p of used) minTvl = Math.min(minTvl, Number(p.tvlUsd));
        routes.push({ dex, tokens: [...tokens], pools: [...used], weight: Math.sqrt(minTvl) });
      }
      if (tokens.length === 4) return;
      const last = tokens.at(-1) as DevnetToken;
      for (const { pool, to } of edges.get(last.address) ?? []) {
        if (tokens.some((t) => t.address === to.address)) continue;
        walk([...tokens, to], [...used, pool]);
      }
    };
    const starts = new Map<string, DevnetToken>();
    for (const pool of pools) {
      starts.set(pool.a.address, pool.a);
      starts.set(pool.b.address, pool.b);
    }
    for (const start of starts.values()) walk([start], []);
  }
  return routes;
}

function shuffle<T>(items: T[], prng: Prng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = prng.int(0, i);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
