import type { Address } from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import type { DevnetDex, DevnetMarket, DevnetPool, DevnetToken } from "../devnetTypes.js";
import type { ReferencePrices } from "../market/createReferencePrices.js";
import type { ChainCasePool, ChainCases } from "./deployChainCases.js";

/** The kinds of transaction the chain cases send. */
export type ChainCaseKind =
  | "fork"
  | "direct"
  | "aggregator"
  | "feeOnTransfer"
  | "fee25"
  | "unpriced"
  | "fee25Only"
  | "poolCreated"
  /** Trades in the pool of two listed tokens opened off the market. */
  | "listedPool"
  /** One trade routed through a V2 pool then a V3 pool (DevnetV3Router.swapV2ThenV3). */
  | "aggregatorV3";

/** One transaction of a round; kind undefined: no trade of its own (a direct swap's transfer). */
export interface PlannedCaseTx {
  kind: ChainCaseKind | undefined;
  tx: TxRequest;
}

/** A pool a round creates and on which DEX; the off-market one with both tokens' reference prices. */
export interface PlannedCasePool {
  pool: ChainCasePool;
  dex: DevnetDex;
  referenceUsd?: [bigint, bigint];
}

/** What one round of chain-case transactions is planned from. */
export interface ChainCaseRound {
  writer: ChainWriter;
  market: DevnetMarket;
  cases: ChainCases;
  prng: Prng;
  /** The round's number: it picks traders, directions and paths. */
  round: number;
  wrapped: DevnetToken;
  stable: DevnetToken;
  /** The market's first DEX. */
  dex0: DevnetDex;
  /** Deep, listed, fairly priced pools: what aggregators route through. */
  liquid: readonly DevnetPool[];
  /** The first DEX's wrapped/stable pool, swapped directly. */
  directPool: DevnetPool | undefined;
  /** A first-DEX pool of the wrapped token and another than the stablecoin. */
  otherWrappedPool: DevnetPool | undefined;
  /**
   * The V2-then-V3 route of the chain's V3 DEX, when it has one: stable -> wrapped on the direct
   * pool, then wrapped -> `tokenOut` on `pool`; `approved` holds the traders who approved `router`.
   */
  v3Route: { router: Address; pool: Address; tokenOut: DevnetToken; approved: Set<Address> } | undefined;
  /** Set when the off-market pool is to be opened: the prices it is set off from. */
  reference: ReferencePrices | undefined;
  /** `dollars` (rounded) worth of `token` at its setup price, in its units. */
  usd(token: DevnetToken, dollars: number): bigint;
  /** The trader `offset` places after the round's first. */
  trader(offset: number): Address;
}
