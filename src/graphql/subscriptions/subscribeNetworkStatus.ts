import type { NetworkStatus } from "../../domain/market.js";
import type { NetworkName } from "../../domain/types.js";
import { assertNetworkConfigured } from "../../views/assertNetworkReady.js";
import type { MarketFeed, MarketState } from "../../views/types.js";
import { STATUS_HEARTBEAT_MS, watchMarket } from "./watchMarket.js";

/** A status with the instant it describes: a long subscription judges data age per event, not per request. */
export type TimedNetworkStatus = NetworkStatus & { atMs: number };

/** Subscription.networkStatus: at once, at each newly indexed block, and every STATUS_HEARTBEAT_MS. */
export function subscribeNetworkStatus(
  reader: MarketState & MarketFeed,
  args: { network: NetworkName },
): AsyncIterableIterator<TimedNetworkStatus> {
  assertNetworkConfigured(reader, args.network);
  const now = (): TimedNetworkStatus => ({ ...reader.status(args.network), atMs: Date.now() });
  return watchMarket(reader, args.network, {
    initial: now,
    map: (event) => (event.type === "indexed" ? now() : undefined),
    tick: { ms: STATUS_HEARTBEAT_MS, value: now },
  });
}
