import type { Address } from "viem";
import type { ChainWriter } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import type { V3Flow } from "../v3/createV3Flow.js";
import type { MarketFlow } from "./createMarketFlow.js";
import type { TradeEncoder } from "./createTradeEncoder.js";
import type { PlannedTrade, TradeGenerator } from "./createTradeGenerator.js";

/** Trading that keeps going on a devnet chain until stopped. */
export interface LiveTrading {
  /** Stops after the block in flight (if any) is mined; safe to call more than once. */
  stop(): Promise<void>;
  readonly trades: number;
  readonly blocks: number;
}

/** Options of live trading. */
export interface LiveTradingOptions {
  generator: TradeGenerator;
  encoder: TradeEncoder;
  prng: Prng;
  /** Average milliseconds between blocks; each wait is drawn between half and 1.5 times this. */
  intervalMs: number;
  /** Trades per block are drawn between 1 and this (default 3). */
  maxTradesPerBlock?: number;
  /** Accounts the trades come from, re-synced after a failed send. */
  traders: readonly Address[];
  /** Wash trading and arbitrage after each block's trades, in the same block (default: none). */
  flow?: MarketFlow;
  /** Called after each block with its timestamp; may mine blocks of its own (the real-chain cases). */
  afterBlock?: (timestamp: number) => Promise<unknown>;
  /** The concentrated-liquidity pools' trading, arbitrage and positions, after the rest of the block. */
  v3?: V3Flow;
  log?: (message: string) => void;
}

/** Starts mining a block of a few trades at the current time every few seconds. */
export function startLiveTrading(writer: ChainWriter, options: LiveTradingOptions): LiveTrading {
  let stopped = false;
  let trades = 0;
  let blocks = 0;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const tick = async () => {
    const planned: PlannedTrade[] = [];
    const count = options.prng.int(1, options.maxTradesPerBlock ?? 3);
    for (let i = 0; i < count; i++) planned.push(options.generator.next());
    const now = Math.floor(Date.now() / 1000);
    try {
      const [, followUp] = await Promise.all([
        writer.send(options.encoder.encode(planned, now + 1200)),
        options.flow?.follow(planned, now),
      ]);
      if (followUp !== undefined) {
        const reactions = [...followUp.wash, ...followUp.arbitrage];
        if (reactions.length > 0) await writer.send(options.encoder.encode(reactions, now + 1200));
      }
      const v3Txs = options.v3?.plan(now, count) ?? [];
      if (v3Txs.length > 0) await writer.send(v3Txs);
      const mined = await writer.mine(now);
      trades += count;
      blocks++;
      await options.afterBlock?.(mined);
    } catch (error) {
      if (stopped) return;
      options.log?.(`live trading: ${error instanceof Error ? error.message : String(error)}`);
      // A refused send leaves our local nonces ahead of the chain: read them back.
      await writer.syncNonces([...options.traders, ...(options.flow?.accounts ?? [])]).catch(() => {});
    }
  };

  const schedule = () => {
    if (stopped) return;
    const delay = Math.max(1, Math.round(options.intervalMs * (0.5 + options.prng.next())));
    timer = setTimeout(() => {
      inFlight = tick().finally(schedule);
    }, delay);
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await inFlight;
    },
    get trades() {
      return trades;
    },
    get blocks() {
      return blocks;
    },
  };
}
