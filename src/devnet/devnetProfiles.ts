/** What a devnet is built for: the demo (the default) or a dense day of trading for scale tests. */
export type DevnetProfile = "demo" | "dense";

/**
 * Which of a preset's pools a devnet seeds and trades: "all" (the demo: thin and unlisted ones
 * included), "main" (each listed token's main pair per DEX), "one" (only the deepest pair).
 */
export type DevnetPools = "all" | "main" | "one";

/** The names `--profile` accepts. */
export const DEVNET_PROFILES: readonly DevnetProfile[] = ["demo", "dense"];

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
 * with the chain, so full blocks build far faster), on the main pairs only.
 */
export const DEVNET_PROFILE_DEFAULTS: Readonly<Record<DevnetProfile, DevnetProfileDefaults>> = {
  demo: { days: 7, swapsPerNetwork: 3000, traders: 60, swapsPerBlock: 8, pools: "all" },
  dense: { days: 1, swapsPerNetwork: 100_000, traders: 250, swapsPerBlock: 150, pools: "main" },
};
