import type { NetworkName } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import type { TradePageQuery, TradePosition } from "./types.js";

/**
 * The largest page listTradePage returns.
 * @internal exported for tests, which read whole stores page by page.
 */
export const MAX_TRADE_PAGE = 10_000;

export type SqlDialect = "sqlite" | "postgres";

/** A statement with its parameters in placeholder order (`?` for SQLite, `$n::type` for PostgreSQL). */
export interface SqlText {
  text: string;
  params: (string | number | bigint)[];
}

/** The block range that holds a time window's trades (from the (network, timestamp) index). */
export interface TradeWindow {
  /** undefined: no trade at or after fromTimestamp. */
  firstBlock: bigint | undefined;
  /** undefined: no upper end (no toTimestamp), or no trade before it when `empty` is set. */
  lastBlock: bigint | undefined;
  /** True when toTimestamp is set and no trade is before it. */
  empty: boolean;
}

/** The columns every page returns (a StoredTrade row). */
export const TRADE_COLUMNS =
  "seq, network, tx_hash, block_number, timestamp, tx_index, sender, token_in, amount_in, token_out, amount_out, volume_usd, tracked, pools, log_index";

/** A column list with every column named as the trades table's (for reads that join trade_pools). */
export function qualified(columns: string): string {
  return columns
    .split(", ")
    .map((column) => `trades.${column}`)
    .join(", ");
}

/** Throws BadRequestError for a page limit outside 1..10,000; `what` names the page ("trade"). */
export function assertPageLimit(what: string, limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TRADE_PAGE) {
    throw new BadRequestError(`Invalid ${what} page limit.`, {
      details: `got ${limit}, expected an integer from 1 to ${MAX_TRADE_PAGE}`,
    });
  }
}

/** Throws BadRequestError for a position index (in the order given) that is not a non-negative integer. */
export function assertPagePosition(what: string, indexes: Readonly<Record<string, number>>): void {
  for (const [name, index] of Object.entries(indexes)) {
    if (!Number.isInteger(index) || index < 0) {
      throw new BadRequestError(`Invalid ${what} page position.`, {
        details: `got ${name} ${index}, expected a non-negative integer`,
      });
    }
  }
}

/** Throws BadRequestError for a limit outside 1..10,000 or a malformed position. */
export function assertTradePageQuery(query: TradePageQuery): void {
  const { limit, after } = query;
  assertPageLimit("trade", limit);
  if (after !== undefined) assertPagePosition("trade", { txIndex: after.txIndex, logIndex: after.logIndex });
}

/** A statement's parameter list and `p(value, type)`, which adds a value and returns its placeholder. */
export function placeholders(dialect: SqlDialect) {
  const params: (string | number | bigint)[] = [];
  // Template literals evaluate left to right, so params are pushed in the order `?` appear.
  const p = (value: string | number | bigint, pgType: "text" | "int8" | "int4" | "numeric"): string => {
    params.push(value);
    return dialect === "sqlite" ? "?" : `$${params.length}::${pgType}`;
  };
  return { params, p };
}

/** The window probe's two scalar subqueries of one time window (see buildTradeWindowSql). */
function windowTerms(
  p: ReturnType<typeof placeholders>["p"],
  network: NetworkName,
  fromTimestamp: number,
  toTimestamp: number | undefined,
): { first: string; last: string } {
  // `+block_number` keeps min()/max() from walking the block index in search of the timestamp.
  const first = `(SELECT min(+block_number) FROM trades WHERE network = ${p(network, "text")} AND timestamp =
      (SELECT min(timestamp) FROM trades WHERE network = ${p(network, "text")} AND timestamp >= ${p(fromTimestamp, "int8")}))`;
  const last =
    toTimestamp === undefined
      ? "NULL"
      : `(SELECT max(+block_number) FROM trades WHERE network = ${p(network, "text")} AND timestamp =
      (SELECT max(timestamp) FROM trades WHERE network = ${p(network, "text")} AND timestamp < ${p(toTimestamp, "int8")}))`;
  return { first, last };
}

/**
 * The first and last block of a time window. Block timestamps never decrease along a chain, so
 * the window is the block range from the lowest block of its first timestamp to the highest block
 * of its last one: two index probes, however large the window.
 */
export function buildTradeWindowSql(
  dialect: SqlDialect,
  network: NetworkName,
  fromTimestamp: number,
  toTimestamp: number | undefined,
): SqlText {
  const { params, p } = placeholders(dialect);
  const { first, last } = windowTerms(p, network, fromTimestamp, toTimestamp);
  return { text: `SELECT ${first} AS first_block, ${last} AS last_block`, params };
}

/** The window probes of several time windows in one statement: columns first_block_i, last_block_i. */
export function buildTradeWindowsSql(
  dialect: SqlDialect,
  network: NetworkName,
  windows: readonly { fromTimestamp: number; toTimestamp: number }[],
): SqlText {
  const { params, p } = placeholders(dialect);
  // Made in text order: SQLite binds `?` by position.
  const columns = windows.map(({ fromTimestamp, toTimestamp }, i) => {
    const { first, last } = windowTerms(p, network, fromTimestamp, toTimestamp);
    return `${first} AS first_block_${i}, ${last} AS last_block_${i}`;
  });
  return { text: `SELECT ${columns.join(", ")}`, params };
}

/** Reads the window probe's row (int8 arrives as string from postgres.js, as bigint from better-sqlite3). */
export function decodeTradeWindow(
  row: { first_block: bigint | string | number | null; last_block: bigint | string | number | null },
  toTimestamp: number | undefined,
): TradeWindow {
  const firstBlock = row.first_block === null ? undefined : BigInt(row.first_block);
  const lastBlock = row.last_block === null ? undefined : BigInt(row.last_block);
  return { firstBlock, lastBlock, empty: toTimestamp !== undefined && lastBlock === undefined };
}

/** Reads the row of buildTradeWindowsSql: each window's range, in the order asked. */
export function decodeTradeWindows(
  row: Record<string, bigint | string | number | null>,
  windows: readonly { toTimestamp: number }[],
): TradeWindow[] {
  return windows.map(({ toTimestamp }, i) =>
    decodeTradeWindow(
      { first_block: row[`first_block_${i}`] ?? null, last_block: row[`last_block_${i}`] ?? null },
      toTimestamp,
    ),
  );
}

/**
 * `volume_usd >= min`, exact on both stores: PostgreSQL compares numerics; SQLite keeps the value as
 * decimal TEXT without leading zeros, so a longer text is larger and texts of one length compare
 * as strings.
 */
function minVolumeTerm(dialect: SqlDialect, min: bigint, p: ReturnType<typeof placeholders>["p"]): string {
  if (dialect === "postgres") return `AND volume_usd >= ${p(min.toString(), "numeric")}`;
  const text = min < 0n ? "0" : min.toString();
  return `AND (length(volume_usd) > ${p(text.length, "int4")}
       OR (length(volume_usd) = ${p(text.length, "int4")} AND volume_usd >= ${p(text, "text")}))`;
}

/**
 * One keyset page over an index: the scan starts right after max(after, start of the window) on
 * (block_number, tx_index, log_index) and stops at the window's last block (or maxBlock), so a page reads
 * about `limit` index entries whatever the window's size. Unfiltered pages use the
 * (network, block_number, tx_index, log_index) index, sender pages the sender index, pool pages
 * the pool's trade_pools rows, token pages merge the token_in and token_out indexes. undefined:
 * the page is empty without asking.
 */
export function buildTradePageSql(
  dialect: SqlDialect,
  network: NetworkName,
  query: TradePageQuery,
  window: TradeWindow,
): SqlText | undefined {
  if (window.firstBlock === undefined || window.empty) return undefined;
  const start: TradePosition =
    query.after !== undefined && query.after.blockNumber >= window.firstBlock
      ? query.after
      : { blockNumber: window.firstBlock, txIndex: -1, logIndex: -1 };
  let end = window.lastBlock;
  if (query.maxBlock !== undefined && (end === undefined || query.maxBlock < end)) end = query.maxBlock;
  if (end !== undefined && start.blockNumber > end) return undefined;

  const { params, p } = placeholders(dialect);
  const { pool, token, sender } = query;
  const columns = pool === undefined ? TRADE_COLUMNS : `${TRADE_COLUMNS}, marks`;
  // Timestamps are checked again row by row (`+timestamp` keeps that check off the indexes): the
  // block range already holds exactly the window when timestamps never decrease along the chain.
  // A trades-led branch walks one of the trades' indexes (`filter` picks which); a pool-led one
  // walks the pool's trade_pools rows, which hold the same keys in the same order, and looks
  // each trade up by seq (`filter` then checks the rest row by row). A pool's trades carry their
  // marks: the per-pool amounts are in them.
  const branch = (filter: () => string, leadPool?: string): string => {
    const k = leadPool === undefined ? "" : "tp.";
    const source =
      leadPool === undefined
        ? `SELECT ${columns} FROM trades WHERE network = ${p(network, "text")} ${filter()}`
        : `SELECT ${qualified(columns)} FROM trade_pools AS tp CROSS JOIN trades
           WHERE tp.network = ${p(network, "text")} AND tp.pool = ${p(leadPool, "text")}`;
    return `${source}
       AND (${k}block_number, ${k}tx_index, ${k}log_index) >
         (${p(start.blockNumber, "int8")}, ${p(start.txIndex, "int4")}, ${p(start.logIndex, "int4")})
       ${end === undefined ? "" : `AND ${k}block_number <= ${p(end, "int8")}`}
       ${leadPool === undefined ? "" : `AND trades.seq = tp.seq AND trades.network = tp.network ${filter()}`}
       AND +timestamp >= ${p(query.fromTimestamp, "int8")}
       ${query.toTimestamp === undefined ? "" : `AND +timestamp < ${p(query.toTimestamp, "int8")}`}
       ${query.minVolumeUsd === undefined ? "" : minVolumeTerm(dialect, query.minVolumeUsd, p)}
       ORDER BY ${k}block_number, ${k}tx_index, ${k}log_index LIMIT ${p(query.limit, "int4")}`;
  };
  const tokenTerm = () =>
    token === undefined ? "" : ` AND (token_in = ${p(token, "text")} OR token_out = ${p(token, "text")})`;

  let text: string;
  if (sender !== undefined) {
    // A sender's trades are few next to a token's or most pools': its index leads, the token and
    // the pool are checked per row.
    text = branch(
      () =>
        `AND sender = ${p(sender, "text")}${tokenTerm()}` +
        (pool === undefined ? "" : ` AND (',' || pools || ',') LIKE ${p(`%,${pool},%`, "text")}`),
    );
  } else if (pool !== undefined) {
    // A pool's own rows lead: a rarely traded pool costs its few trades, not the window's.
    text = branch(tokenTerm, pool);
  } else if (token !== undefined) {
    // Two index scans merged; a trade that sold and bought the token (a cycle) comes from the first only.
    const sold = branch(() => `AND token_in = ${p(token, "text")}`);
    const bought = branch(() => `AND token_out = ${p(token, "text")} AND token_in <> ${p(token, "text")}`);
    text = `SELECT * FROM (${sold}) AS sold UNION ALL SELECT * FROM (${bought}) AS bought
      ORDER BY block_number, tx_index, log_index LIMIT ${p(query.limit, "int4")}`;
  } else {
    text = branch(() => "");
  }
  return { text, params };
}
