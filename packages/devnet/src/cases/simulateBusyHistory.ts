import { type Address, parseAbiItem } from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import { swapEvent } from "../deploy/devnetAbis.js";
import type { DevnetMarket, DevnetPool, DevnetToken } from "../devnetTypes.js";
import type { MarketFlow } from "../market/createMarketFlow.js";
import type { TradeEncoder } from "../market/createTradeEncoder.js";
import type { PlannedTrade, TradeGenerator } from "../market/createTradeGenerator.js";
import type { HistorySummary } from "../market/simulateHistory.js";
import { type BlockMix, BUSY_BLOCK_SECONDS } from "../presets/devnetProfiles.js";
import { usdToUnits } from "../usdToUnits.js";
import { buildAggregatorUnit } from "./buildAggregatorUnit.js";
import { buildBusyBackground } from "./buildBusyBackground.js";
import type { BusyBlockContext, BusyHistorySummary, BusyUnit } from "./busyBlockTypes.js";
import type { BusyChain } from "./deployBusyChain.js";

/** Options of simulateBusyHistory. */
export interface SimulateBusyHistoryOptions {
  market: DevnetMarket;
  busy: BusyChain;
  mix: BlockMix;
  blocks: number;
  /** Unix seconds of the last block (blocks are BUSY_BLOCK_SECONDS apart before it). */
  endTimestamp: number;
  generator: TradeGenerator;
  encoder: TradeEncoder;
  /** The arbitrage after each block's trades (used when the mix asks for it). */
  flow?: MarketFlow;
  /** Accounts the background traffic comes from (the traders). */
  accounts: readonly Address[];
  prng: Prng;
  /**
   * Called after each block with its timestamp; may mine blocks of its own (the real-chain cases)
   * and returns the Swap events they emitted.
   */
  interleave?: (timestamp: number) => Promise<number>;
  log?: (message: string) => void;
}

const rewardPaidEvent = parseAbiItem("event RewardPaid(address indexed user, uint256 reward)");
const USD = 10n ** 18n;
const LOG_CHUNK_BLOCKS = 100n;

/** What the history's blocks held of the market, and the Swap events they must have emitted. */
interface MarketTally {
  trades: number;
  arbitrageTrades: number;
  washTrades: number;
  expectedSwaps: number;
}

/**
 * Mines `blocks` full blocks ending at `endTimestamp`, each as the mix says: the traders'
 * trades on the configured DEXes (some through the aggregator) and the arbitrage that follows
 * them, swaps on the foreign fork, and background traffic (native and token transfers,
 * approvals, wraps, the farm's harvests), interleaved at random but with the market's trades in
 * their planned order. Checks that every swap and harvest happened.
 */
export async function simulateBusyHistory(
  writer: ChainWriter,
  options: SimulateBusyHistoryOptions,
): Promise<{ history: HistorySummary; busy: BusyHistorySummary }> {
  const started = performance.now();
  const { busy, prng } = options;
  const ctx = buildBusyBlockContext(options);
  const { summary } = ctx;
  const fromBlock = (await writer.client.getBlockNumber()) + 1n;
  const tally: MarketTally = { trades: 0, arbitrageTrades: 0, washTrades: 0, expectedSwaps: 0 };
  let transactions = 0;
  let fromTimestamp = 0;
  let nextReport = 0.25;
  for (let i = 0; i < options.blocks; i++) {
    const timestamp = options.endTimestamp - (options.blocks - 1 - i) * BUSY_BLOCK_SECONDS;
    const deadline = BigInt(timestamp + 1200);
    const ordered = await planMarketUnits(ctx, options, timestamp, tally);
    const others = buildBusyBackground(ctx, deadline);
    tally.expectedSwaps += others.filter((unit) => unit[0]?.to === busy.foreign.router).length;
    const block = interleaveUnits(prng, ordered, others);
    await writer.send(block);
    const mined = await writer.mine(timestamp);
    if (i === 0) fromTimestamp = mined;
    if (options.interleave !== undefined) tally.expectedSwaps += await options.interleave(mined);
    transactions += block.length;
    summary.txsPerBlock.min = Math.min(summary.txsPerBlock.min, block.length);
    summary.txsPerBlock.max = Math.max(summary.txsPerBlock.max, block.length);
    if ((i + 1) / options.blocks >= nextReport) {
      options.log?.(
        `busy history ${Math.round(((i + 1) / options.blocks) * 100)}%: ${i + 1} blocks, ${transactions} txs`,
      );
      nextReport += 0.25;
    }
  }
  summary.txsPerBlock.mean = Math.round(transactions / Math.max(1, options.blocks));
  if (options.blocks === 0) summary.txsPerBlock.min = 0;
  const toBlock = await writer.client.getBlockNumber();
  await writer.assertPoolEmpty();
  // Every swap and every harvest happened: counting their logs is far cheaper than receipts.
  const { swapLogs, rewards } = await countBusyLogs(writer, busy.farm, fromBlock, toBlock);
  if (swapLogs !== tally.expectedSwaps)
    throw new Error(`devnet: expected ${tally.expectedSwaps} Swap logs, found ${swapLogs}`);
  if (rewards !== summary.protocolCalls) {
    throw new Error(`devnet: expected ${summary.protocolCalls} farm harvests, found ${rewards}`);
  }
  return {
    history: {
      trades: tally.trades,
      arbitrageTrades: tally.arbitrageTrades,
      washTrades: tally.washTrades,
      transactions,
      swapLogs,
      blocks: options.blocks,
      fromBlock,
      toBlock,
      fromTimestamp,
      toTimestamp: writer.lastTimestamp,
      ms: Math.round(performance.now() - started),
    },
    busy: summary,
  };
}

/** The context every block is built from, its summary empty. */
function buildBusyBlockContext(options: SimulateBusyHistoryOptions): BusyBlockContext {
  const { market, mix, prng } = options;
  const poolByHop = new Map<string, DevnetPool>();
  for (const pool of market.pools) {
    poolByHop.set(`${pool.dex}:${pool.a.address}:${pool.b.address}`, pool);
    poolByHop.set(`${pool.dex}:${pool.b.address}:${pool.a.address}`, pool);
  }
  return {
    market,
    busy: options.busy,
    mix,
    prng,
    accounts: options.accounts,
    listed: [...market.tokens.values()].filter((t) => t.listed && !t.isWrappedNative),
    poolByHop,
    aggregatorApproved: new Set<string>(),
    summary: {
      txsPerBlock: { min: Number.POSITIVE_INFINITY, mean: 0, max: 0 },
      aggregatorTxs: 0,
      foreignSwaps: 0,
      nativeTransfers: 0,
      tokenTransfers: 0,
      approvals: 0,
      wraps: 0,
      protocolCalls: 0,
      protocolLogs: 0,
    },
    countOf: (mean: number) =>
      mix.jitter === 0
        ? mean
        : Math.max(0, Math.round(mean * (1 - mix.jitter + 2 * mix.jitter * prng.next()))),
    randomAddress: (): Address =>
      `0x${Array.from({ length: 5 }, () => prng.int(0, 0xffffffff).toString(16).padStart(8, "0")).join("")}`,
    units: (token: DevnetToken, usd: number) =>
      usdToUnits(BigInt(Math.max(1, Math.round(usd * 100))) * (USD / 100n), token.priceE18, token.decimals),
    sizeUsd: (median: number, max: number) =>
      Math.min(max, Math.max(5, Math.exp(Math.log(median) + 1.1 * prng.normal()))),
  };
}

/**
 * The market's units of the block at `timestamp`, in order: the traders' planned trades (some
 * through the aggregator), then the arbitrage and wash trades that follow them when the mix asks.
 */
async function planMarketUnits(
  ctx: BusyBlockContext,
  options: SimulateBusyHistoryOptions,
  timestamp: number,
  tally: MarketTally,
): Promise<BusyUnit[]> {
  const { mix, prng, summary, countOf } = ctx;
  const planned = Array.from({ length: countOf(mix.trades) }, () => options.generator.next());
  const ordered: BusyUnit[] = [];
  for (let t = 0; t < planned.length; t++) {
    const trade = planned[t] as PlannedTrade;
    tally.trades++;
    tally.expectedSwaps += trade.path.length - 1;
    if (trade.kind === "tokensForTokens" && prng.chance(mix.aggregatorShare)) {
      // Now and then two routes of one trader in one aggregator transaction.
      const next = planned[t + 1];
      const pair = next !== undefined && next.trader === trade.trader && next.kind === "tokensForTokens";
      const unit = buildAggregatorUnit(ctx, pair ? [trade, next] : [trade]);
      if (unit !== undefined) {
        if (pair) {
          tally.trades++;
          tally.expectedSwaps += next.path.length - 1;
          t++;
        }
        ordered.push(unit);
        continue;
      }
    }
    const unit = options.encoder.encode([trade], timestamp + 1200);
    summary.approvals += unit.length - 1;
    ordered.push(unit);
  }
  if (mix.arbitrage && options.flow !== undefined) {
    const followUp = await options.flow.follow(planned, timestamp);
    const reactions = [...followUp.wash, ...followUp.arbitrage];
    tally.arbitrageTrades += followUp.arbitrage.length;
    tally.washTrades += followUp.wash.length;
    for (const trade of reactions) tally.expectedSwaps += trade.path.length - 1;
    const txs = options.encoder.encode(reactions, timestamp + 1200);
    if (txs.length > 0) ordered.push(txs);
  }
  return ordered;
}

/** The market's units in order, the others shuffled in between at random places. */
function interleaveUnits(prng: Prng, ordered: readonly BusyUnit[], others: BusyUnit[]): TxRequest[] {
  for (let i = others.length - 1; i > 0; i--) {
    const j = prng.int(0, i);
    [others[i], others[j]] = [others[j] as BusyUnit, others[i] as BusyUnit];
  }
  const out: TxRequest[] = [];
  let a = 0;
  let b = 0;
  while (a < ordered.length || b < others.length) {
    const takeOrdered =
      b >= others.length ||
      (a < ordered.length && prng.next() * (ordered.length - a + others.length - b) < ordered.length - a);
    out.push(...((takeOrdered ? ordered[a++] : others[b++]) as BusyUnit));
  }
  return out;
}

/** Swap events of any pool and the farm's RewardPaid events in `fromBlock..toBlock`. */
async function countBusyLogs(
  writer: ChainWriter,
  farm: Address,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<{ swapLogs: number; rewards: number }> {
  let swapLogs = 0;
  let rewards = 0;
  for (let from = fromBlock; from <= toBlock; from += LOG_CHUNK_BLOCKS) {
    const to = from + LOG_CHUNK_BLOCKS - 1n < toBlock ? from + LOG_CHUNK_BLOCKS - 1n : toBlock;
    const [swaps, paid] = await Promise.all([
      writer.client.getLogs({ event: swapEvent, fromBlock: from, toBlock: to }),
      writer.client.getLogs({ address: farm, event: rewardPaidEvent, fromBlock: from, toBlock: to }),
    ]);
    swapLogs += swaps.length;
    rewards += paid.length;
  }
  return { swapLogs, rewards };
}
