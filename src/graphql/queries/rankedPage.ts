import { BadRequestError } from "../../errors.js";

/** A list item with the value it is ranked by and the address that breaks ties. */
export interface Ranked<T> {
  node: T;
  /** The order's value; -1 for an item without one (unpriced, unknown), so it sorts last. */
  key: bigint;
  address: string;
}

/** A position in a ranked list: where a cursor points. */
export interface RankPosition {
  key: bigint;
  address: string;
}

/** A Relay-style page of ranked items. */
export interface RankedPage<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const CURSOR = /^([A-Z0-9_]{1,30}):(-1|\d{1,90}):(0x[0-9a-f]{40})$/;

/** The opaque cursor of a position in an order (base64url of "ORDER:key:address"). */
function encodeRankCursor(order: string, position: RankPosition): string {
  return Buffer.from(`${order}:${position.key}:${position.address}`).toString("base64url");
}

/**
 * The position a cursor of `order` points at. Throws BadRequestError for anything else (another
 * order's cursor included), naming the list (`what`) so the client knows which cursor to pass.
 */
export function decodeRankCursor(what: string, order: string, cursor: string): RankPosition {
  const match =
    cursor.length <= 200 ? CURSOR.exec(Buffer.from(cursor, "base64url").toString("latin1")) : null;
  if (match === null || match[1] !== order) {
    throw new BadRequestError(
      `after is not a valid cursor: pass an endCursor or edge cursor of ${what} with the same orderBy.`,
    );
  }
  return { key: BigInt(match[2]!), address: match[3]! };
}

// Descending by the key, then ascending by address: a total order, so keyset pages never repeat.
function before(a: RankPosition, b: RankPosition): boolean {
  return a.key !== b.key ? a.key > b.key : a.address < b.address;
}

/**
 * Sorts the items highest key first (ties by address) and cuts the page of `first` after the
 * `after` position (which need not be in the list any more: values move between pages).
 */
export function rankedPage<T>(
  items: Ranked<T>[],
  order: string,
  first: number,
  after: RankPosition | undefined,
): RankedPage<T> {
  items.sort((a, b) => (before(a, b) ? -1 : 1));
  const start = after === undefined ? 0 : items.findIndex((item) => before(after, item));
  const rest = start < 0 ? [] : items.slice(start);
  const edges = rest
    .slice(0, first)
    .map((item) => ({ cursor: encodeRankCursor(order, item), node: item.node }));
  return {
    edges,
    pageInfo: { hasNextPage: rest.length > first, endCursor: edges.at(-1)?.cursor ?? null },
  };
}
