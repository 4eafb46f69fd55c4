import type { NetworkName } from "../../src/domain/types.js";
import type { MarketReader } from "../../src/views/types.js";
import { chainHead } from "./devnet.js";
import { waitFor } from "./waitFor.js";

/** Options of waitUntilIndexed. */
export interface WaitUntilIndexedOptions {
  /** The block to reach: a number, or an RPC URL whose head is asked fresh on every poll. */
  to: bigint | { rpcUrl: string };
  /** Also require the network to say it is ready (default true; false for a replica catching up). */
  ready?: boolean;
  /** Also require this (e.g. the pool state at the same block). */
  also?: () => boolean;
  /** Generous: a backfill on a loaded 2-core machine (default 120 s). */
  timeoutMs?: number;
  what?: string;
}

/**
 * Waits until `views` has indexed `network` exactly to the block asked for (and, by default, says
 * it is ready): the one "caught up" wait of the suite. A halted network (a reorg deeper than the
 * window) can never get there: the wait fails at once with the indexer's reason.
 */
export async function waitUntilIndexed(
  views: Pick<MarketReader, "status">,
  network: NetworkName,
  options: WaitUntilIndexedOptions,
): Promise<void> {
  const { to, ready = true, also, timeoutMs = 120_000 } = options;
  const target = async () => (typeof to === "bigint" ? to : await chainHead(to.rpcUrl));
  await waitFor(
    async () => {
      const status = views.status(network);
      if (status.halted) throw new Error(`${network} halted: ${status.error}`);
      if (ready && !status.ready) return false;
      if (status.indexedBlock !== (await target())) return false;
      return also?.() ?? true;
    },
    timeoutMs,
    options.what ?? `${network} indexed to ${typeof to === "bigint" ? `block ${to}` : "the chain head"}`,
  );
}
