import type { MarketReader } from "../domain/market.js";
import type { NetworkName } from "../domain/types.js";
import { NotReadyError } from "../errors.js";

/** Throws NotReadyError (503) unless the network is configured on this server. */
export function assertNetworkConfigured(reader: MarketReader, network: NetworkName): void {
  if (!reader.networks().includes(network)) {
    throw new NotReadyError(`Network ${network} is not configured on this server.`);
  }
}

/** Throws NotReadyError (503) unless the network is configured, caught up and not halted. */
export function assertNetworkReady(reader: MarketReader, network: NetworkName): void {
  assertNetworkConfigured(reader, network);
  const status = reader.status(network);
  // The status text may name internals (RPC URLs, SQL): it goes to GraphQL `status`, not here.
  if (status.error !== undefined) {
    throw new NotReadyError(`Network ${network} is temporarily unavailable; retry later.`, {
      details: status.error,
    });
  }
  if (!status.ready) {
    throw new NotReadyError(`Network ${network} is still being indexed; retry in a few minutes.`);
  }
}
