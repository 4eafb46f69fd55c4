import type { Address } from "viem";
import type { DevnetClient } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import type { DevnetMarket } from "../devnetTypes.js";
import { type Arbitrageur, createArbitrageur } from "./createArbitrageur.js";
import { createPoolMirror, type PoolMirror } from "./createPoolMirror.js";
import type { ReferencePrices } from "./createReferencePrices.js";
import type { PlannedTrade } from "./createTradeGenerator.js";
import { createWashTrader, type WashTrader } from "./createWashTrader.js";

/** The trades that react to a block's flow, to be mined in the same block after it. */
interface FollowUp {
  wash: PlannedTrade[];
  arbitrage: PlannedTrade[];
}

/** What happens in a block after the traders' trades: wash trading, then arbitrage. */
export interface MarketFlow {
  readonly mirror: PoolMirror;
  /** Call its `watch` for a pool created later (e.g. off the market) to have it arbitraged. */
  readonly arbitrageur: Arbitrageur;
  readonly washTrader: WashTrader | undefined;
  /** Accounts that trade here besides the traders (for nonce re-syncs). */
  readonly accounts: readonly Address[];
  /**
   * Brings the mirror to the last mined block (re-reading the pools unless only our own block
   * was mined since), applies `trades` (sent for the next block, in order), and returns the
   * trades that follow them in that block.
   */
  follow(trades: readonly PlannedTrade[], timestamp: number): Promise<FollowUp>;
}

/** Options of a market flow. */
export interface MarketFlowOptions {
  reference: ReferencePrices;
  arbitrageur: Address;
  washTrader: Address;
  /** Draws the wash trader's blocks and sizes. */
  prng: Prng;
  /** Chance that a block has one wash round trip; the first block always has one (default 0.08). */
  washChance?: number;
}

const RESYNC_BLOCKS = 50;

/**
 * Creates the flow that follows each block's trades over a deployed market: a mirror of every
 * seeded pool, re-read from the chain whenever someone else may have traded (their trades count
 * too); the block's trades applied to it with the pair math; a wash round trip on the wash pool
 * now and then; last, the arbitrage that puts every pool of two reference-priced tokens back in
 * its fee band around the reference.
 */
export function createMarketFlow(
  client: DevnetClient,
  market: DevnetMarket,
  options: MarketFlowOptions,
): MarketFlow {
  const { prng } = options;
  const washChance = options.washChance ?? 0.08;
  const mirror = createPoolMirror(client);
  const arbitrageur = createArbitrageur({
    account: options.arbitrageur,
    mirror,
    reference: options.reference,
  });
  let washTrader: WashTrader | undefined;
  for (const pool of market.pools) {
    const dex = market.dexes[pool.dex];
    const spec = { address: pool.address, a: pool.a, b: pool.b, router: dex.router, feeBps: dex.feeBps };
    const mirrored = mirror.add(spec);
    if (pool.wash && washTrader === undefined)
      washTrader = createWashTrader({ account: options.washTrader, mirror, pool: mirrored, prng });
    else if (!pool.wash) arbitrageur.watch(spec);
  }
  const routerOf = (trade: PlannedTrade) => trade.router ?? market.dexes[trade.dex].router;
  // Even a short history has wash trading to show.
  let washed = false;
  // The head the mirror matches once the block being followed is mined, and blocks since a read.
  let inSyncAt: bigint | undefined;
  let sinceSync = 0;

  return {
    mirror,
    arbitrageur,
    washTrader,
    accounts: washTrader === undefined ? [arbitrageur.account] : [arbitrageur.account, washTrader.account],
    async follow(trades, timestamp) {
      const head = await client.getBlockNumber();
      // When only our own last block was mined since, the mirror already holds its trades: reading
      // every pool's reserves per block was a good part of the demo's build time. Another block
      // (someone else's trades) or a while without a read (a trade that reverted) means a read.
      if (head !== inSyncAt || ++sinceSync >= RESYNC_BLOCKS) {
        await mirror.sync();
        sinceSync = 0;
      }
      inSyncAt = head + 1n;
      for (const trade of trades) mirror.apply(trade, routerOf(trade));
      const wash = washTrader !== undefined && (prng.chance(washChance) || !washed) ? washTrader.plan() : [];
      washed ||= wash.length > 0;
      return { wash, arbitrage: arbitrageur.plan(timestamp) };
    },
  };
}
