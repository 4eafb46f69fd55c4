import type { Hash } from "viem";
import type { ChainWriter } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import { swapEvent } from "../deploy/devnetAbis.js";
import type { V3Flow } from "../v3/createV3Flow.js";
import type { MarketFlow } from "./createMarketFlow.js";
import type { TradeEncoder } from "./createTradeEncoder.js";
import type { PlannedTrade, TradeGenerator } from "./createTradeGenerator.js";

/** What a simulated history put on the chain. */
export interface HistorySummary {
  /** The traders' swap transactions (one trade may hop through several pools). */
  trades: number;
  /** The arbitrageur's swap transactions (one pool each). */
  arbitrageTrades: number;
  /** The wash trader's swap transactions (two per round trip). */
  washTrades: number;
  /** Transactions sent, approvals included. */
  transactions: number;
  /** Swap events emitted: one per pool hop (the interleaved blocks' included). */
  swapLogs: number;
  blocks: number;
  fromBlock: bigint;
  toBlock: bigint;
  fromTimestamp: number;
  toTimestamp: number;
  /** Wall-clock milliseconds it took. */
  ms: number;
}

/** Options of one simulated history. */
export interface SimulateHistoryOptions {
  generator: TradeGenerator;
  encoder: TradeEncoder;
  prng: Prng;
  trades: number;
  days: number;
  /** Unix seconds of the last history block (normally: now). */
  endTimestamp: number;
  /** Average trades per block; fuller blocks are cheaper on anvil (default 8). */
  tradesPerBlock?: number;
  /** Wash trading and arbitrage after each block's trades, in the same block (default: none). */
  flow?: MarketFlow;
  /**
   * Called after each block with its timestamp; may mine blocks of its own (the real-chain cases)
   * and returns the Swap events they emitted, so the final count still checks out.
   */
  interleave?: (timestamp: number) => Promise<number>;
  /**
   * The concentrated-liquidity pools' transactions of a block (`trades`: the block's trade count),
   * sent after the V2 trades and their reactions, in the same block; checked at the end.
   */
  v3?: V3Flow;
  log?: (message: string) => void;
}

const DAY = 86_400;
// Keeps each eth_getLogs answer well under viem's 10 MB response limit (a Swap log is ~0.7 KB).
const MAX_LOG_CHUNK_BLOCKS = 200;
const LOGS_PER_CHUNK = 4000;

/**
 * Mines `days` of trading ending at `endTimestamp`: blocks spread over the period with a daily
 * rhythm and day-to-day swings in both trade count and size. Each block is one batch of
 * transactions followed by evm_mine at the block's timestamp. Verifies every swap happened.
 */
export async function simulateHistory(
  writer: ChainWriter,
  options: SimulateHistoryOptions,
): Promise<HistorySummary> {
  const started = performance.now();
  const { prng, days } = options;
  const slots = Math.max(1, Math.ceil(options.trades / (options.tradesPerBlock ?? 8)));
  const spacing = (days * DAY) / slots;
  const start = options.endTimestamp - days * DAY;

  const dayWeights = Array.from({ length: Math.ceil(days) }, () => 0.45 + 1.1 * prng.next());
  const slotWeights: number[] = [];
  for (let i = 0; i < slots; i++) {
    const t = i * spacing;
    const hour = (t % DAY) / 3600;
    slotWeights.push(
      (dayWeights[Math.floor(t / DAY)] ?? 1) * (1 + 0.45 * Math.sin((2 * Math.PI * (hour - 9)) / 24)),
    );
  }
  const perSlot = distribute(options.trades, slotWeights, prng);
  // The history ends now: the last slot always holds a block, at exactly endTimestamp.
  if ((perSlot[slots - 1] ?? 0) === 0) {
    const busiest = perSlot.indexOf(Math.max(...perSlot));
    perSlot[busiest] = (perSlot[busiest] ?? 1) - 1;
    perSlot[slots - 1] = 1;
  }

  const fromBlock = (await writer.client.getBlockNumber()) + 1n;
  let transactions = 0;
  let arbitrageTrades = 0;
  let washTrades = 0;
  let expectedSwapLogs = 0;
  let blocks = 0;
  let fromTimestamp = 0;
  const hashes: Hash[] = [];
  let nextReport = 0.25;
  for (let i = 0; i < slots; i++) {
    const count = perSlot[i] ?? 0;
    if (count === 0) continue;
    const timestamp =
      i === slots - 1
        ? options.endTimestamp
        : Math.floor(start + (i + 1) * spacing - prng.next() * spacing * 0.9);
    const sizeFactor = dayWeights[Math.floor((i * spacing) / DAY)] ?? 1;
    const trades: PlannedTrade[] = [];
    for (let k = 0; k < count; k++) trades.push(options.generator.next(sizeFactor));
    const txs = options.encoder.encode(trades, timestamp + 1200);
    // The flow reads the last mined block's reserves while the block's trades are being sent.
    const [sent, followUp] = await Promise.all([
      writer.send(txs),
      options.flow?.follow(trades, timestamp) ?? { wash: [], arbitrage: [] },
    ]);
    hashes.push(...sent);
    const reactions = [...followUp.wash, ...followUp.arbitrage];
    arbitrageTrades += followUp.arbitrage.length;
    washTrades += followUp.wash.length;
    const reactionTxs = options.encoder.encode(reactions, timestamp + 1200);
    // The V3 pools' block follows in the same request (one round trip less per block).
    const v3Txs = options.v3?.plan(timestamp, count, sizeFactor) ?? [];
    if (reactionTxs.length + v3Txs.length > 0) {
      const sentAfter = await writer.send([...reactionTxs, ...v3Txs]);
      hashes.push(...sentAfter.slice(0, reactionTxs.length));
      options.v3?.track(sentAfter.slice(reactionTxs.length));
      transactions += v3Txs.length;
    }
    transactions += txs.length + reactionTxs.length;
    for (const trade of [...trades, ...reactions]) expectedSwapLogs += trade.path.length - 1;
    const mined = await writer.mine(timestamp);
    if (blocks === 0) fromTimestamp = mined;
    blocks++;
    if (options.interleave !== undefined) expectedSwapLogs += await options.interleave(mined);
    if (i / slots >= nextReport) {
      options.log?.(`history ${Math.round((i / slots) * 100)}%: ${blocks} blocks, ${transactions} txs`);
      nextReport += 0.25;
    }
  }
  const toBlock = await writer.client.getBlockNumber();
  await writer.assertPoolEmpty();
  await options.v3?.assertSucceeded(writer);
  // Every hop of every trade must have emitted a Swap: counting them is far cheaper than receipts.
  let swapLogs = 0;
  const fullest = perSlot.reduce((max, n) => Math.max(max, n), 0);
  const chunk = BigInt(
    Math.max(1, Math.min(MAX_LOG_CHUNK_BLOCKS, Math.floor(LOGS_PER_CHUNK / (2 * fullest)))),
  );
  for (let from = fromBlock; from <= toBlock; from += chunk) {
    const to = from + chunk - 1n < toBlock ? from + chunk - 1n : toBlock;
    swapLogs += (await writer.client.getLogs({ event: swapEvent, fromBlock: from, toBlock: to })).length;
  }
  if (swapLogs !== expectedSwapLogs) {
    await writer.assertSucceeded(hashes);
    throw new Error(`devnet: expected ${expectedSwapLogs} Swap logs, found ${swapLogs}`);
  }
  return {
    trades: options.trades,
    arbitrageTrades,
    washTrades,
    transactions,
    swapLogs,
    blocks,
    fromBlock,
    toBlock,
    fromTimestamp,
    toTimestamp: writer.lastTimestamp,
    ms: Math.round(performance.now() - started),
  };
}

/** Spreads `total` items over slots with probability proportional to their weights. */
function distribute(total: number, weights: readonly number[], prng: Prng): number[] {
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) {
    sum += w;
    cumulative.push(sum);
  }
  const counts = new Array<number>(weights.length).fill(0);
  for (let n = 0; n < total; n++) {
    const r = prng.next() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) > r) hi = mid;
      else lo = mid + 1;
    }
    counts[lo] = (counts[lo] ?? 0) + 1;
  }
  return counts;
}
