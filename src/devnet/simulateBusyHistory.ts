import { type Address, encodeFunctionData, maxUint256, parseAbiItem } from "viem";
import { devnetAggregatorAbi } from "./chainCaseAbis.js";
import type { ChainWriter, TxRequest } from "./createChainWriter.js";
import type { MarketFlow } from "./createMarketFlow.js";
import type { Prng } from "./createPrng.js";
import type { TradeEncoder } from "./createTradeEncoder.js";
import type { PlannedTrade, TradeGenerator } from "./createTradeGenerator.js";
import type { BusyChain, ForeignPool } from "./deployBusyChain.js";
import {
  devnetFarmAbi,
  devnetTokenAbi,
  swapEvent,
  uniswapV2RouterAbi,
  wrappedNativeAbi,
} from "./devnetAbis.js";
import { type BlockMix, BUSY_BLOCK_SECONDS } from "./devnetProfiles.js";
import type { DevnetMarket, DevnetPool, DevnetToken } from "./devnetTypes.js";
import type { HistorySummary } from "./simulateHistory.js";
import { usdToUnits } from "./usdToUnits.js";

/** What the busy blocks held besides the market's trades. */
export interface BusyHistorySummary {
  /** Transactions per history block. */
  txsPerBlock: { min: number; mean: number; max: number };
  /** Aggregator transactions (one or two routes each; each route is a trade). */
  aggregatorTxs: number;
  foreignSwaps: number;
  nativeTransfers: number;
  tokenTransfers: number;
  /** Background approvals and the approvals trades needed first. */
  approvals: number;
  wraps: number;
  protocolCalls: number;
  /** Logs the farm emitted. */
  protocolLogs: number;
}

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
// Log-normal sizes around $300 on the foreign fork, at most 1% of a pool's $200k.
const FOREIGN_MAX_USD = 2_000;
const LOG_CHUNK_BLOCKS = 100n;

/** A few transactions that must stay in this order (an approval, then its swap). */
type Unit = TxRequest[];

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
  const { market, busy, mix, prng } = options;
  const { wrapped } = market;
  const listed = [...market.tokens.values()].filter((t) => t.listed && !t.isWrappedNative);
  const poolByHop = new Map<string, DevnetPool>();
  for (const pool of market.pools) {
    poolByHop.set(`${pool.dex}:${pool.a.address}:${pool.b.address}`, pool);
    poolByHop.set(`${pool.dex}:${pool.b.address}:${pool.a.address}`, pool);
  }
  const aggregatorApproved = new Set<string>();
  const summary: BusyHistorySummary = {
    txsPerBlock: { min: Number.POSITIVE_INFINITY, mean: 0, max: 0 },
    aggregatorTxs: 0,
    foreignSwaps: 0,
    nativeTransfers: 0,
    tokenTransfers: 0,
    approvals: 0,
    wraps: 0,
    protocolCalls: 0,
    protocolLogs: 0,
  };
  const countOf = (mean: number) =>
    mix.jitter === 0 ? mean : Math.max(0, Math.round(mean * (1 - mix.jitter + 2 * mix.jitter * prng.next())));
  const randomAddress = (): Address =>
    `0x${Array.from({ length: 5 }, () => prng.int(0, 0xffffffff).toString(16).padStart(8, "0")).join("")}`;
  const units = (token: DevnetToken, usd: number) =>
    usdToUnits(BigInt(Math.max(1, Math.round(usd * 100))) * (USD / 100n), token.priceE18, token.decimals);
  const sizeUsd = (median: number, max: number) =>
    Math.min(max, Math.max(5, Math.exp(Math.log(median) + 1.1 * prng.normal())));

  /** A token-to-token trade routed through the aggregator (pairs called directly). */
  function aggregatorUnit(trades: readonly PlannedTrade[]): Unit | undefined {
    const routes = [];
    for (const trade of trades) {
      const pairs: Address[] = [];
      for (let h = 0; h + 1 < trade.path.length; h++) {
        const a = trade.path[h] as DevnetToken;
        const b = trade.path[h + 1] as DevnetToken;
        const pool = poolByHop.get(`${trade.dex}:${a.address}:${b.address}`);
        if (pool === undefined) return undefined;
        pairs.push(pool.address);
      }
      routes.push({
        pairs,
        path: trade.path.map((t) => t.address),
        feeBps: pairs.map(() => market.dexes[trade.dex].feeBps),
        amountIn: trade.amountIn,
        viaSelf: prng.chance(0.5),
      });
    }
    const trader = (trades[0] as PlannedTrade).trader;
    const unit: Unit = [];
    for (const trade of trades) {
      const tokenIn = trade.path[0] as DevnetToken;
      const key = `${trader}:${tokenIn.address}`;
      if (aggregatorApproved.has(key)) continue;
      aggregatorApproved.add(key);
      summary.approvals++;
      unit.push({
        from: trader,
        to: tokenIn.address,
        gas: 100_000n,
        data: encodeFunctionData({
          abi: devnetTokenAbi,
          functionName: "approve",
          args: [busy.aggregator, maxUint256],
        }),
      });
    }
    const hops = routes.reduce((n, r) => n + r.pairs.length, 0);
    unit.push({
      from: trader,
      to: busy.aggregator,
      gas: 400_000n * BigInt(hops) + 200_000n,
      data: encodeFunctionData({ abi: devnetAggregatorAbi, functionName: "execute", args: [routes] }),
    });
    summary.aggregatorTxs++;
    return unit;
  }

  function foreignSwap(deadline: bigint): TxRequest {
    const pool: ForeignPool = prng.pick(busy.foreignPools);
    const from = prng.pick(busy.foreignTraders);
    const usd = sizeUsd(300, FOREIGN_MAX_USD);
    const buy = prng.chance(0.5);
    const [sell, get] = buy ? [pool.b, pool.a] : [pool.a, pool.b];
    const path = [sell.address, get.address];
    const call = (data: `0x${string}`, value = 0n): TxRequest => ({
      from,
      to: busy.foreign.router,
      gas: 250_000n,
      value,
      data,
    });
    summary.foreignSwaps++;
    if (sell.isWrappedNative) {
      return call(
        encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: "swapExactETHForTokens",
          args: [0n, path, from, deadline],
        }),
        units(sell, usd),
      );
    }
    return call(
      encodeFunctionData({
        abi: uniswapV2RouterAbi,
        functionName: get.isWrappedNative ? "swapExactTokensForETH" : "swapExactTokensForTokens",
        args: [units(sell, usd), 0n, path, from, deadline],
      }),
    );
  }

  function background(deadline: bigint): Unit[] {
    const out: Unit[] = [];
    for (let k = countOf(mix.foreignSwaps); k > 0; k--) out.push([foreignSwap(deadline)]);
    for (let k = countOf(mix.nativeTransfers); k > 0; k--) {
      const from = prng.pick(options.accounts);
      const to = prng.chance(0.7) ? randomAddress() : prng.pick(options.accounts);
      out.push([{ from, to, gas: 21_000n, data: "0x", value: units(wrapped, sizeUsd(100, 50_000)) }]);
      summary.nativeTransfers++;
    }
    for (let k = countOf(mix.tokenTransfers); k > 0; k--) {
      const token = prng.pick(listed);
      out.push([
        {
          from: prng.pick(options.accounts),
          to: token.address,
          gas: 80_000n,
          data: encodeFunctionData({
            abi: devnetTokenAbi,
            functionName: "transfer",
            args: [randomAddress(), units(token, sizeUsd(200, 20_000))],
          }),
        },
      ]);
      summary.tokenTransfers++;
    }
    for (let k = countOf(mix.approvals); k > 0; k--) {
      const token = prng.pick([...listed, wrapped]);
      out.push([
        {
          from: prng.pick(options.accounts),
          to: token.address,
          gas: 60_000n,
          data: encodeFunctionData({
            abi: devnetTokenAbi,
            functionName: "approve",
            args: [randomAddress(), prng.chance(0.5) ? maxUint256 : units(token, sizeUsd(500, 100_000))],
          }),
        },
      ]);
      summary.approvals++;
    }
    for (let k = countOf(mix.wraps); k > 0; k--) {
      const from = prng.pick(options.accounts);
      const amount = units(wrapped, sizeUsd(200, 20_000));
      out.push([
        prng.chance(0.6)
          ? {
              from,
              to: wrapped.address,
              gas: 60_000n,
              value: amount,
              data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "deposit" }),
            }
          : {
              from,
              to: wrapped.address,
              gas: 60_000n,
              data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "withdraw", args: [amount] }),
            },
      ]);
      summary.wraps++;
    }
    for (let k = countOf(mix.protocolCalls); k > 0; k--) {
      const pids = Array.from({ length: prng.int(1, 4) }, () => BigInt(prng.int(0, 40)));
      out.push([
        {
          from: prng.pick(options.accounts),
          to: busy.farm,
          gas: 60_000n + 10_000n * BigInt(pids.length),
          data: encodeFunctionData({
            abi: devnetFarmAbi,
            functionName: "harvest",
            args: [pids, BigInt(prng.int(1, 1_000_000)) * 10n ** 12n],
          }),
        },
      ]);
      summary.protocolCalls++;
      summary.protocolLogs += pids.length + 1;
    }
    return out;
  }

  /** The market's units in order, the others shuffled in between at random places. */
  function interleave(ordered: readonly Unit[], others: Unit[]): TxRequest[] {
    for (let i = others.length - 1; i > 0; i--) {
      const j = prng.int(0, i);
      [others[i], others[j]] = [others[j] as Unit, others[i] as Unit];
    }
    const out: TxRequest[] = [];
    let a = 0;
    let b = 0;
    while (a < ordered.length || b < others.length) {
      const takeOrdered =
        b >= others.length ||
        (a < ordered.length && prng.next() * (ordered.length - a + others.length - b) < ordered.length - a);
      out.push(...((takeOrdered ? ordered[a++] : others[b++]) as Unit));
    }
    return out;
  }

  const fromBlock = (await writer.client.getBlockNumber()) + 1n;
  let transactions = 0;
  let trades = 0;
  let arbitrageTrades = 0;
  let washTrades = 0;
  let expectedSwaps = 0;
  let fromTimestamp = 0;
  let nextReport = 0.25;
  for (let i = 0; i < options.blocks; i++) {
    const timestamp = options.endTimestamp - (options.blocks - 1 - i) * BUSY_BLOCK_SECONDS;
    const deadline = BigInt(timestamp + 1200);
    const planned = Array.from({ length: countOf(mix.trades) }, () => options.generator.next());
    const ordered: Unit[] = [];
    for (let t = 0; t < planned.length; t++) {
      const trade = planned[t] as PlannedTrade;
      trades++;
      expectedSwaps += trade.path.length - 1;
      if (trade.kind === "tokensForTokens" && prng.chance(mix.aggregatorShare)) {
        // Now and then two routes of one trader in one aggregator transaction.
        const next = planned[t + 1];
        const pair = next !== undefined && next.trader === trade.trader && next.kind === "tokensForTokens";
        const unit = aggregatorUnit(pair ? [trade, next] : [trade]);
        if (unit !== undefined) {
          if (pair) {
            trades++;
            expectedSwaps += next.path.length - 1;
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
      arbitrageTrades += followUp.arbitrage.length;
      washTrades += followUp.wash.length;
      for (const trade of reactions) expectedSwaps += trade.path.length - 1;
      const txs = options.encoder.encode(reactions, timestamp + 1200);
      if (txs.length > 0) ordered.push(txs);
    }
    const others = background(deadline);
    expectedSwaps += others.filter((unit) => unit[0]?.to === busy.foreign.router).length;
    const block = interleave(ordered, others);
    await writer.send(block);
    const mined = await writer.mine(timestamp);
    if (i === 0) fromTimestamp = mined;
    if (options.interleave !== undefined) expectedSwaps += await options.interleave(mined);
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
  let swapLogs = 0;
  let rewards = 0;
  for (let from = fromBlock; from <= toBlock; from += LOG_CHUNK_BLOCKS) {
    const to = from + LOG_CHUNK_BLOCKS - 1n < toBlock ? from + LOG_CHUNK_BLOCKS - 1n : toBlock;
    const [swaps, paid] = await Promise.all([
      writer.client.getLogs({ event: swapEvent, fromBlock: from, toBlock: to }),
      writer.client.getLogs({ address: busy.farm, event: rewardPaidEvent, fromBlock: from, toBlock: to }),
    ]);
    swapLogs += swaps.length;
    rewards += paid.length;
  }
  if (swapLogs !== expectedSwaps)
    throw new Error(`devnet: expected ${expectedSwaps} Swap logs, found ${swapLogs}`);
  if (rewards !== summary.protocolCalls) {
    throw new Error(`devnet: expected ${summary.protocolCalls} farm harvests, found ${rewards}`);
  }
  return {
    history: {
      trades,
      arbitrageTrades,
      washTrades,
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
