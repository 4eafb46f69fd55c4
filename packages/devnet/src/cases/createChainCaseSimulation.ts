import type { Address, Hash } from "viem";
import type { ChainWriter } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import { uniswapV2FactoryAbi } from "../deploy/devnetAbis.js";
import type { DevnetDex, DevnetMarket, DevnetPool, DevnetToken } from "../devnetTypes.js";
import type { Arbitrageur } from "../market/createArbitrageur.js";
import type { ReferencePrices } from "../market/createReferencePrices.js";
import { parseUsd, usdToUnits } from "../usdToUnits.js";
import type { DevnetV3 } from "../v3/v3Types.js";
import type { ChainCaseKind, ChainCaseRound, PlannedCasePool } from "./chainCaseTypes.js";
import type { ChainCases } from "./deployChainCases.js";
import { planCasePoolCreations } from "./planCasePoolCreations.js";
import { planCaseTrades } from "./planCaseTrades.js";

/**
 * A pool created during the week (addresses lowercase).
 * @internal exported for tests, which type their fakes with it.
 */
export interface CreatedPoolInfo {
  address: Address;
  dex: string;
  symbols: [string, string];
  /** The block of its PairCreated. */
  block: bigint;
  /**
   * Set on the pool of two listed tokens opened off the market: unix seconds from which the
   * arbitrageur trades it. Its trades before then are at its own price, far off the market.
   */
  offMarketUntil?: number;
  /** Timestamp of the first history block at or after offMarketUntil: its arbitrage brought the pool back. */
  arbitragedAt?: number;
  /** Both tokens' reference USD prices (10^18-scaled, `symbols` order) at its creation and at arbitragedAt. */
  referenceUsd?: { created: [bigint, bigint]; arbitraged?: [bigint, bigint] };
}

/** What the chain cases put on the chain, as plain data (addresses lowercase). */
export interface ChainCasesInfo {
  /** The unconfigured Uniswap fork: its pools' swaps must be absent from the index. */
  fork: { factory: Address; router: Address; pools: Address[] };
  /** The 0.25% DEX (bsc), configured with feeBps 25, and its pools. */
  fee25: (DevnetDex & { pools: Address[] }) | undefined;
  aggregator: Address;
  taxToken: { address: Address; symbol: string; decimals: number; taxBps: number; pool: Address };
  /** Tokens with no route to a USD price, and their pool. */
  unpriced: { tokens: [Address, Address]; pool: Address };
  /** A token pooled only on the 0.25% DEX (bsc). */
  fee25Only: Address | undefined;
  /** Pools created during the week, with the block of their PairCreated. */
  createdPools: CreatedPoolInfo[];
  traders: Address[];
  /** Successful transactions by kind (approvals and funding left out). */
  txs: Record<ChainCaseKind, Hash[]>;
  /** Swap events the transactions emitted, fork pools included. */
  swapLogs: number;
  /** Extra blocks mined between the history's blocks. */
  blocks: number;
}

/** Sends the chain cases' transactions in blocks of their own between the history's blocks. */
export interface ChainCaseSimulation {
  /**
   * Called after each history block mined at `timestamp`: when a round is due, mines one more
   * block of chain-case transactions right after it. Returns the Swap events that block emitted.
   */
  interleave(timestamp: number): Promise<number>;
  /** Checks every chain-case transaction succeeded and returns what was done. */
  finish(): Promise<ChainCasesInfo>;
  /**
   * Live trading: after every `every`-th live block, mines one round of chain-case transactions
   * (their hashes join the info's `txs`). Failures surface like live trading's own.
   */
  live(timestamp: number): Promise<void>;
}

/** Options of createChainCaseSimulation. */
export interface ChainCaseSimulationOptions {
  cases: ChainCases;
  market: DevnetMarket;
  prng: Prng;
  /** The history's first and last timestamps: rounds are spread evenly between them. */
  fromTimestamp: number;
  toTimestamp: number;
  /** Rounds over the history (default 40). */
  rounds?: number;
  /** During live trading, one round every this many live blocks (default 5). */
  liveEvery?: number;
  /**
   * Opens the cases' off-market pool (ChainCases.pools.offMarket) mid-week, its price 25-40% off
   * `reference`, and has `arbitrageur` start on it some hours later. Without it the pool is never created.
   */
  offMarket?: { arbitrageur: Arbitrageur; reference: ReferencePrices };
  /** The chain's V3 DEX: each round then routes one trade through a V2 pool and a V3 pool. */
  v3?: DevnetV3;
}

const KINDS: readonly ChainCaseKind[] = [
  "fork",
  "direct",
  "aggregator",
  "feeOnTransfer",
  "fee25",
  "unpriced",
  "fee25Only",
  "poolCreated",
  "listedPool",
  "aggregatorV3",
];
// The off-market pool is left alone by the arbitrageur for half a day (a tenth of a shorter history).
const OFF_MARKET_SECONDS = 12 * 3600;
// No round in the history's last stretch: its last block must stay at exactly its end time.
const LAST_ROUND_BEFORE = 0.97;

/** Creates the round scheduler of the chain cases of one chain. */
export function createChainCaseSimulation(
  writer: ChainWriter,
  options: ChainCaseSimulationOptions,
): ChainCaseSimulation {
  const { cases } = options;
  const rounds = options.rounds ?? 40;
  const span = Math.max(1, options.toTimestamp - options.fromTimestamp);
  const txs = Object.fromEntries(KINDS.map((kind) => [kind, [] as Hash[]])) as Record<ChainCaseKind, Hash[]>;
  const createdPools: CreatedPoolInfo[] = [];
  // The off-market pool's entry once created: its arbitrage start is filled in when it comes.
  let offMarketInfo: CreatedPoolInfo | undefined;
  const offMarketSeconds = Math.min(OFF_MARKET_SECONDS, Math.floor(span / 10));
  let round = 0;
  let swapLogs = 0;
  let blocks = 0;
  const extra: Hash[] = [];

  const base = buildCaseRoundBase(writer, options);
  const trader = (offset: number): Address =>
    cases.traders[(round + offset) % cases.traders.length] as Address;

  /** Mines one block of the cases' transactions right after `timestamp`; returns its Swap events. */
  async function runRound(timestamp: number, fraction: number): Promise<number> {
    const ctx: ChainCaseRound = { ...base, round, trader };
    const creations = planCasePoolCreations(ctx, timestamp, fraction);
    const trades = await planCaseTrades(ctx, creations.created);
    const sent = [...creations.sent, ...trades.sent];
    const hashes = await writer.send(sent.map((s) => s.tx));
    // Right after the block it follows: history blocks are minutes apart, live ones seconds.
    const mined = await writer.mine(timestamp + 1);
    blocks++;
    const block = await writer.client.getBlockNumber();
    for (const [i, s] of sent.entries()) if (s.kind !== undefined) txs[s.kind].push(hashes[i] as Hash);
    // The transfers before direct swaps must have succeeded too.
    extra.push(...hashes.filter((_, i) => sent[i]?.kind === undefined));
    for (const created of creations.created) await recordCreated(created, block, mined);
    return trades.swaps;
  }

  /** Notes a pool created in `block` (mined at `mined`); the off-market one is handed to the arbitrageur. */
  async function recordCreated({ pool, dex, referenceUsd }: PlannedCasePool, block: bigint, mined: number) {
    pool.address = (
      await writer.client.readContract({
        address: dex.factory,
        abi: uniswapV2FactoryAbi,
        functionName: "getPair",
        args: [pool.a.address, pool.b.address],
      })
    ).toLowerCase() as Address;
    pool.createdBlock = block;
    const info: CreatedPoolInfo = {
      address: pool.address,
      dex: dex.name,
      symbols: [pool.a.symbol, pool.b.symbol],
      block,
    };
    if (referenceUsd !== undefined && options.offMarket !== undefined) {
      info.offMarketUntil = mined + offMarketSeconds;
      info.referenceUsd = { created: referenceUsd };
      const spec = { address: pool.address, a: pool.a, b: pool.b, router: dex.router, feeBps: dex.feeBps };
      if (!options.offMarket.arbitrageur.watch(spec, info.offMarketUntil))
        throw new Error(`devnet chain cases: the arbitrageur refused ${pool.a.symbol}/${pool.b.symbol}`);
      offMarketInfo = info;
    }
    createdPools.push(info);
  }

  /** Records the first history block (mined at `timestamp`) whose arbitrage covers the off-market pool. */
  function noteArbitrageStart(timestamp: number): void {
    const info = offMarketInfo;
    const reference = options.offMarket?.reference;
    if (info?.referenceUsd === undefined || info.offMarketUntil === undefined || reference === undefined)
      return;
    if (info.arbitragedAt !== undefined || timestamp < info.offMarketUntil) return;
    info.arbitragedAt = timestamp;
    info.referenceUsd.arbitraged = [
      reference.at(info.symbols[0], timestamp) ?? 0n,
      reference.at(info.symbols[1], timestamp) ?? 0n,
    ];
  }

  let nextRound = 0.5 / rounds;
  let liveBlocks = 0;
  return {
    async live(timestamp) {
      if (++liveBlocks % (options.liveEvery ?? 5) !== 0) return;
      swapLogs += await runRound(timestamp, 1);
      round++;
    },
    async interleave(timestamp) {
      noteArbitrageStart(timestamp);
      const fraction = (timestamp - options.fromTimestamp) / span;
      if (fraction < nextRound || fraction >= LAST_ROUND_BEFORE) return 0;
      while (nextRound <= fraction) nextRound += 1 / rounds;
      const swaps = await runRound(timestamp, fraction);
      round++;
      swapLogs += swaps;
      return swaps;
    },
    async finish() {
      await writer.assertPoolEmpty();
      await writer.assertSucceeded([...extra, ...KINDS.flatMap((kind) => txs[kind])]);
      return buildChainCasesInfo(cases, { createdPools, txs, swapLogs, blocks });
    },
  };
}

/** The parts of a round's context that stay the same from round to round. */
function buildCaseRoundBase(
  writer: ChainWriter,
  options: ChainCaseSimulationOptions,
): Omit<ChainCaseRound, "round" | "trader"> {
  const { cases, market, prng } = options;
  const { wrapped } = market;
  const { stable } = cases;
  // Deep, listed, fairly priced pools: what aggregators route through.
  const liquid = market.pools.filter((p) => !p.thin && !p.wash && !p.unlisted);
  return {
    writer,
    market,
    cases,
    prng,
    wrapped,
    stable,
    dex0: market.dexes[0],
    liquid,
    directPool: liquid.find((p) => p.dex === 0 && has(p, wrapped) && has(p, stable)),
    otherWrappedPool: liquid.find((p) => p.dex === 0 && has(p, wrapped) && !has(p, stable)),
    reference: options.offMarket?.reference,
    v3Route: buildV3Route(options.v3, wrapped, stable),
    usd: (token: DevnetToken, dollars: number): bigint =>
      usdToUnits(parseUsd(String(Math.round(dollars))), token.priceE18, token.decimals),
  };
}

/** The V3 leg of the V2-then-V3 route: a regular V3 pool of the wrapped token and another than the stablecoin. */
function buildV3Route(
  v3: DevnetV3 | undefined,
  wrapped: DevnetToken,
  stable: DevnetToken,
): ChainCaseRound["v3Route"] {
  const pool = v3?.pools.find(
    (p) =>
      !p.thin && (p.token0 === wrapped || p.token1 === wrapped) && p.token0 !== stable && p.token1 !== stable,
  );
  if (v3 === undefined || pool === undefined) return undefined;
  const tokenOut = pool.token0 === wrapped ? pool.token1 : pool.token0;
  return { router: v3.router, pool: pool.address, tokenOut, approved: new Set() };
}

function has(pool: DevnetPool, token: DevnetToken): boolean {
  return pool.a.address === token.address || pool.b.address === token.address;
}

/** What the chain cases did, as plain data: the cases' contracts and pools and the round tallies. */
function buildChainCasesInfo(
  cases: ChainCases,
  done: Pick<ChainCasesInfo, "createdPools" | "txs" | "swapLogs" | "blocks">,
): ChainCasesInfo {
  return {
    fork: { factory: cases.fork.factory, router: cases.fork.router, pools: [cases.pools.fork.address] },
    fee25:
      cases.fee25 === undefined
        ? undefined
        : {
            ...cases.fee25,
            pools: [
              ...cases.pools.fee25.map((p) => p.address),
              ...(cases.pools.fee25Only?.createdBlock === undefined ? [] : [cases.pools.fee25Only.address]),
            ],
          },
    aggregator: cases.aggregator,
    taxToken: {
      address: cases.taxToken.address,
      symbol: cases.taxToken.symbol,
      decimals: cases.taxToken.decimals,
      taxBps: cases.taxToken.taxBps,
      pool: cases.pools.tax.address,
    },
    unpriced: {
      tokens: [cases.unpriced[0].address, cases.unpriced[1].address],
      pool: cases.pools.unpriced.address,
    },
    fee25Only: cases.fee25Only?.address,
    createdPools: done.createdPools,
    traders: cases.traders,
    txs: done.txs,
    swapLogs: done.swapLogs,
    blocks: done.blocks,
  };
}
