/**
 * What a devnet is built for: the demo (the default), a dense day of trading for scale tests, or
 * a BSC-shaped chain (full blocks of mostly other traffic) for measuring what indexing costs.
 */
export type DevnetProfile = "demo" | "dense" | "bsc-shaped";

/**
 * Which of a preset's pools a devnet seeds and trades: "all" (the demo: thin and unlisted ones
 * included), "main" (each listed token's main pair per DEX), "one" (only the deepest pair).
 */
export type DevnetPools = "all" | "main" | "one";

/** The names `--profile` accepts. */
export const DEVNET_PROFILES: readonly DevnetProfile[] = ["demo", "dense", "bsc-shaped"];

/** Defaults a profile gives to startDevnet's options (explicit options win). */
export interface DevnetProfileDefaults {
  days: number;
  swapsPerNetwork: number;
  traders: number;
  /** Average trades per history block. */
  swapsPerBlock: number;
  pools: DevnetPools;
}

/**
 * The demo: seven days of 3,000 trades by 60 traders, about 8 a block, on every pool. Dense: one
 * day of 100,000 trades by 250 traders, about 150 a block (anvil's cost is per block and grows
 * with the chain, so full blocks build far faster), on the main pairs only. BSC-shaped: 500
 * blocks 3 s apart, each as BLOCK_MIXES.bsc says (about 20 of the ~165 transactions are trades on
 * the configured DEXes), by 250 traders on the main pairs.
 */
export const DEVNET_PROFILE_DEFAULTS: Readonly<Record<DevnetProfile, DevnetProfileDefaults>> = {
  demo: { days: 7, swapsPerNetwork: 3000, traders: 60, swapsPerBlock: 8, pools: "all" },
  dense: { days: 1, swapsPerNetwork: 100_000, traders: 250, swapsPerBlock: 150, pools: "main" },
  "bsc-shaped": { days: 1, swapsPerNetwork: 10_000, traders: 250, swapsPerBlock: 20, pools: "main" },
};

/**
 * What each block of a BSC-shaped history holds. Counts are per block: exact when `jitter` is 0,
 * else drawn uniformly within +-jitter of them (real blocks vary).
 */
export interface BlockMix {
  /** Trades by traders on the configured DEXes (the trade generator's: multi-hop, native in and out). */
  trades: number;
  /** Share of the token-to-token trades sent through an aggregator contract instead of a router. */
  aggregatorShare: number;
  /** Swaps on an unconfigured Uniswap V2 fork with many pools (never to be indexed). */
  foreignSwaps: number;
  /** Plain native-coin transfers. */
  nativeTransfers: number;
  /** ERC-20 transfers of listed tokens. */
  tokenTransfers: number;
  /** ERC-20 approvals to unrelated spenders. */
  approvals: number;
  /** Wraps and unwraps of the wrapped native coin (Deposit and Withdrawal logs the indexer reads). */
  wraps: number;
  /** Calls of another protocol (a farm's harvests: 2-5 logs each). */
  protocolCalls: number;
  /** The arbitrage that follows the trades (a few swaps a block). */
  arbitrage: boolean;
  /**
   * Every trader approves every router up front, so no approval ever joins a block (otherwise a
   * trader's first sale of a token through a router is preceded by its approval).
   */
  preapprove: boolean;
  jitter: number;
}

/** The block mixes `--mix` accepts. */
export type BlockMixName = "bsc" | "issue17";

/**
 * "bsc": about 165 transactions a block: 20 configured-DEX trades (a sixth of the token-to-token
 * ones through an aggregator) plus their arbitrage, 20 swaps on a foreign fork, and BSC's
 * background (native and token transfers, approvals, wraps, a farm's logs), counts varying by
 * +-30%. "issue17": exactly what issue 17 measured: 20 configured-DEX trades, 20 foreign-fork
 * swaps and 100 native transfers, nothing else (no approvals, no arbitrage): 140 transactions.
 */
export const BLOCK_MIXES: Readonly<Record<BlockMixName, BlockMix>> = {
  bsc: {
    trades: 20,
    aggregatorShare: 0.17,
    foreignSwaps: 20,
    nativeTransfers: 60,
    tokenTransfers: 30,
    approvals: 8,
    wraps: 8,
    protocolCalls: 12,
    arbitrage: true,
    preapprove: false,
    jitter: 0.3,
  },
  issue17: {
    trades: 20,
    aggregatorShare: 0,
    foreignSwaps: 20,
    nativeTransfers: 100,
    tokenTransfers: 0,
    approvals: 0,
    wraps: 0,
    protocolCalls: 0,
    arbitrage: false,
    preapprove: true,
    jitter: 0,
  },
};

/** History blocks of a BSC-shaped chain by mix (the issue's measurement was of 100 blocks). */
export const BUSY_BLOCKS: Readonly<Record<BlockMixName, number>> = { bsc: 500, issue17: 100 };

/** Seconds between BSC-shaped blocks (BSC's block time). */
export const BUSY_BLOCK_SECONDS = 3;
