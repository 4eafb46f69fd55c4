/** What an RPC URL's pacer knows now (for logs, /metrics and the network status). */
export interface PaceState {
  /** The URL's label (index and host, never its path: API keys live there). */
  readonly label: string;
  readonly network: string;
  /** Calls a second the pacer lets through now; undefined: unpaced (no limit met, no ceiling). */
  readonly perSecond: number | undefined;
  /** True from the provider's first limit answer until it has been quiet for RECOVER_MS. */
  readonly limited: boolean;
}

/**
 * The process's RPC pacers' states (live: each pacer updates its own), by pacer key: written by
 * chain/getSharedTokenBucket, read by /metrics, which does not reach into chain (as the counters).
 */
export const RPC_PACES = new Map<string, PaceState>();
