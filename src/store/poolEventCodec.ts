import type { Address, NetworkName, PoolEvent } from "../domain/types.js";
import { SwapgraphError } from "../errors.js";
import { decodeEventPosition, type EventPositionRow } from "./rowCodec.js";

/** A pool_events row as both drivers return it (see rowCodec.ts). */
export interface PoolEventRow extends EventPositionRow {
  type: string;
  maker: string;
  amount0: string;
  amount1: string;
  reserve0: string | null;
  reserve1: string | null;
}

/** A pool_events row as a PoolEvent. */
export function decodePoolEvent(row: PoolEventRow): PoolEvent {
  return {
    ...decodeEventPosition(row),
    type: row.type === "join" ? "join" : row.type === "exit" ? "exit" : "swap",
    maker: row.maker as Address,
    amount0: BigInt(row.amount0),
    amount1: BigInt(row.amount1),
    reserves:
      row.reserve0 === null || row.reserve1 === null
        ? undefined
        : { reserve0: BigInt(row.reserve0), reserve1: BigInt(row.reserve1) },
  };
}

/** A pool event filed under another network is an indexer bug: refuse the batch before writing anything. */
export function assertPoolEventNetworks(network: NetworkName, events: readonly PoolEvent[]): void {
  for (const event of events) {
    if (event.network !== network) {
      throw new SwapgraphError("INTERNAL", "pool event committed under another network", {
        details: `event ${event.txHash}:${event.logIndex} is on ${event.network}, the batch is for ${network}`,
      });
    }
  }
}
