import type { PoolEventQuery } from "../domain/market.js";
import type { Address, NetworkName, PoolEvent } from "../domain/types.js";
import { BadRequestError, SwapgraphError } from "../errors.js";
import {
  assertPageLimit,
  assertPagePosition,
  placeholders,
  type SqlDialect,
  type SqlText,
} from "./buildTradePageSql.js";
import { decodeEventPosition, type EventPositionRow } from "./rowCodec.js";
import { columnNames } from "./tables/buildTableSql.js";
import { POOL_EVENTS } from "./tables/describedTables.js";

/** A pool_events row as both drivers return it (see rowCodec.ts). */
export interface PoolEventRow extends EventPositionRow {
  type: string;
  maker: string;
  amount0: string;
  amount1: string;
  reserve0: string | null;
  reserve1: string | null;
}

/** The pool_events columns, in PoolEventRow order. */
const POOL_EVENT_COLUMNS = `network, ${columnNames(POOL_EVENTS)}`;

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

/** Throws BadRequestError for a limit outside 1..10,000, a reversed range or a malformed position. */
export function assertPoolEventQuery(query: PoolEventQuery): void {
  const { limit, after, fromBlock, toBlock } = query;
  assertPageLimit("pool event", limit);
  if (fromBlock < 0n || toBlock < fromBlock) {
    throw new BadRequestError("Invalid pool event block range.", {
      details: `got ${fromBlock}..${toBlock}, expected 0 <= fromBlock <= toBlock`,
    });
  }
  if (after !== undefined) assertPagePosition("pool event", { logIndex: after.logIndex });
}

/** One keyset page of pool events in a block range, ascending by (block_number, log_index): a walk of the primary key. */
export function buildPoolEventPageSql(
  dialect: SqlDialect,
  network: NetworkName,
  query: PoolEventQuery,
): SqlText {
  const { params, p } = placeholders(dialect);
  const { after } = query;
  const conditions = [
    `network = ${p(network, "text")}`,
    `block_number >= ${p(query.fromBlock, "int8")}`,
    `block_number <= ${p(query.toBlock, "int8")}`,
    after === undefined
      ? ""
      : `(block_number, log_index) > (${p(after.blockNumber, "int8")}, ${p(after.logIndex, "int4")})`,
  ].filter((condition) => condition !== "");
  const text = `SELECT ${POOL_EVENT_COLUMNS} FROM pool_events WHERE ${conditions.join("\n  AND ")}
    ORDER BY block_number, log_index LIMIT ${p(query.limit, "int4")}`;
  return { text, params };
}
