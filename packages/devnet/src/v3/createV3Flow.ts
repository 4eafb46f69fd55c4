import type { Address, Hash } from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import type { DevnetToken } from "../devnetTypes.js";
import type { ReferencePrices } from "../market/createReferencePrices.js";
import { createV3Positions } from "./createV3Positions.js";
import { createV3Swaps } from "./createV3Swaps.js";
import type { DevnetV3, DevnetV3Pool } from "./v3Types.js";

/** What the V3 flow put on the chain. */
export interface V3HistorySummary {
  /** Traders' swaps through one pool. */
  singleSwaps: number;
  /** Traders' swaps through two pools in one transaction. */
  multiHopSwaps: number;
  /** Of the single swaps, the big ones that cross ticks. */
  whaleSwaps: number;
  /** Tiny swaps in the thin off-market pool (not counted in singleSwaps). */
  thinSwaps: number;
  /** The arbitrageur's swaps to the reference price (a no-op when the pool is there already). */
  arbitrageSwaps: number;
  mints: number;
  /** Positions burned and collected (two transactions each). */
  burns: number;
}

/** The V3 pools' trading: traders' swaps, arbitrage to the reference and positions coming and going. */
export interface V3Flow {
  /** The V3 transactions of a block at `timestamp` with `trades` traders' trades (about 15% of them V3). */
  plan(timestamp: number, trades: number, sizeFactor?: number): TxRequest[];
  /** Keeps the hashes of `plan`'s transactions once sent, for `assertSucceeded`. */
  track(sent: readonly Hash[]): void;
  /** Throws when any V3 transaction sent so far reverted. */
  assertSucceeded(writer: ChainWriter): Promise<void>;
  readonly summary: V3HistorySummary;
}

/** Options of a V3 flow. */
export interface V3FlowOptions {
  v3: DevnetV3;
  traders: readonly Address[];
  /** Owners of the positions opened and closed during the history. */
  providers: readonly Address[];
  arbitrageur: Address;
  reference: ReferencePrices;
  prng: Prng;
  /** Share of the traders' trades sent through V3 pools (default 0.15). */
  share?: number;
}

const MULTI_HOP_SHARE = 0.2;
const WHALE_SHARE = 0.08;
const MINT_CHANCE = 0.06;
const BURN_CHANCE = 0.05;
const THIN_CHANCE = 0.03;

/**
 * Creates the V3 flow over a deployed V3 DEX. A block's V3 trades are single-pool swaps sized like
 * the V2 market's (a few are whales taking 5-15% of a pool, which cross its narrow positions'
 * ticks) and two-pool routes; the arbitrageur then moves each traded pool exactly to the
 * reference price (a swap whose price limit is the target), and any pool whose reference moved; now and
 * then a provider opens a position near the price, or closes one opened earlier (burn, collect).
 */
export function createV3Flow(options: V3FlowOptions): V3Flow {
  const { v3, reference, prng } = options;
  const share = options.share ?? 0.15;
  const regular = v3.pools.filter((p) => !p.thin);
  const priceOf = (token: DevnetToken, t: number) => reference.at(token.symbol, t) ?? token.priceE18;
  const common = { router: v3.router, pools: regular, priceOf, prng };
  const swaps = createV3Swaps({
    ...common,
    thinPool: v3.pools.find((p) => p.thin),
    traders: options.traders,
    arbitrageur: options.arbitrageur,
  });
  const positions = createV3Positions({ ...common, providers: options.providers });
  const hashes: Hash[] = [];
  let blocks = 0;
  const summary: V3HistorySummary = {
    singleSwaps: 0,
    multiHopSwaps: 0,
    whaleSwaps: 0,
    thinSwaps: 0,
    arbitrageSwaps: 0,
    mints: 0,
    burns: 0,
  };

  return {
    summary,
    plan(timestamp, trades, sizeFactor = 1) {
      const txs: TxRequest[] = [];
      const touched = new Set<DevnetV3Pool>();
      let count = 0;
      for (let i = 0; i < trades; i++) if (prng.chance(share)) count++;
      for (let i = 0; i < count; i++) {
        const route = prng.chance(MULTI_HOP_SHARE) ? swaps.multiHop(timestamp, sizeFactor) : undefined;
        if (route !== undefined) {
          txs.push(route.tx);
          for (const pool of route.pools) touched.add(pool);
          summary.multiHopSwaps++;
        } else {
          const whale = prng.chance(WHALE_SHARE);
          const { tx, pool } = swaps.single(timestamp, sizeFactor, whale);
          txs.push(tx);
          touched.add(pool);
          summary.singleSwaps++;
          if (whale) summary.whaleSwaps++;
        }
      }
      // Now and then (and in a short history's third block) a tiny trade in the thin pool.
      const thin = prng.chance(THIN_CHANCE) || blocks === 2 ? swaps.thin() : undefined;
      if (thin !== undefined) {
        txs.push(thin);
        summary.thinSwaps++;
      }
      // Even a short history opens a position (its second block) and closes one (its fourth).
      if (prng.chance(BURN_CHANCE) || blocks === 3) {
        const closing = positions.burn(blocks);
        if (closing.length > 0) summary.burns++;
        txs.push(...closing);
      }
      if (prng.chance(MINT_CHANCE) || blocks === 1) {
        const opening = positions.mint(timestamp, blocks);
        if (opening !== undefined) {
          txs.push(opening);
          summary.mints++;
        }
      }
      blocks++;
      for (const pool of regular) {
        const tx = swaps.arbitrage(pool, timestamp, touched.has(pool));
        if (tx === undefined) continue;
        txs.push(tx);
        summary.arbitrageSwaps++;
      }
      return txs;
    },
    track(sent) {
      hashes.push(...sent);
    },
    async assertSucceeded(writer) {
      await writer.assertSucceeded(hashes);
    },
  };
}
