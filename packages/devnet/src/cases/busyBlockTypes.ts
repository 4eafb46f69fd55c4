import type { Address } from "viem";
import type { TxRequest } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import type { DevnetMarket, DevnetPool, DevnetToken } from "../devnetTypes.js";
import type { BlockMix } from "../presets/devnetProfiles.js";
import type { BusyChain } from "./deployBusyChain.js";

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

/** A few transactions that must stay in this order (an approval, then its swap). */
export type BusyUnit = TxRequest[];

/** What a busy block's transactions are built from, and the tallies they add to. */
export interface BusyBlockContext {
  market: DevnetMarket;
  busy: BusyChain;
  mix: BlockMix;
  prng: Prng;
  /** Accounts the background traffic comes from (the traders). */
  accounts: readonly Address[];
  /** Listed tokens but the wrapped native. */
  listed: readonly DevnetToken[];
  /** The market's pools by `dex:tokenIn:tokenOut`, both directions. */
  poolByHop: ReadonlyMap<string, DevnetPool>;
  /** `trader:token` pairs whose aggregator approval was sent. */
  aggregatorApproved: Set<string>;
  summary: BusyHistorySummary;
  /** The mix's mean count, jittered as the mix says. */
  countOf(mean: number): number;
  randomAddress(): Address;
  /** `usd` dollars (to the cent) of `token` in its units. */
  units(token: DevnetToken, usd: number): bigint;
  /** A log-normal size in dollars around `median`, between $5 and `max`. */
  sizeUsd(median: number, max: number): number;
}
