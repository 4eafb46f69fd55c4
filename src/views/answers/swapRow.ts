/*
 * The swap row of /api/swaps_24h (and of the export), described once: its keys in the order they
 * go out, each with the GraphQL field it is read from. The swaps operation selects
 * SWAP_ROW_SELECTION, the renderer writes SWAP_ROW_KEYS and SWAP_SIDE_KEYS in this order, and its
 * bytes are JSON.stringify of toSwapRow; tests hold the OpenAPI schema (SWAP_SCHEMA) to these keys.
 */

/** Token fields of a GraphQL result (`token { name symbol decimals address }`). */
export interface TokenFields {
  name: string;
  symbol: string;
  decimals: number;
  address: string;
}

/** A side of a swap in a GraphQL result (`sell` or `buy`). */
export interface AmountFields {
  token: TokenFields;
  amount: string;
  amountDecimal: string;
}

/** A swap node of the REST swaps operation's result. */
export interface SwapNode {
  txHash: string;
  blockNumber: string;
  sell: AmountFields;
  buy: AmountFields;
  volumeUSD: string;
}

/** A swap node of the export operation: the list's fields and what keys and dates a row. */
export interface ExportSwapNode extends SwapNode {
  logIndex: number;
  timestamp: number;
  sender: string;
  tracked: boolean;
  pools: string[];
}

/** A page of swaps as the swaps operations return it, the rows' source (SwapsData, ExportData). */
export interface SwapPage<Node extends SwapNode = SwapNode> {
  swaps: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { node: Node }[] };
}

const SIDE: readonly (readonly [string, (side: AmountFields) => string])[] = [
  ["name", (side) => side.token.name],
  ["symbol", (side) => side.token.symbol],
  // A string, as the contract has it.
  ["decimals", (side) => String(side.token.decimals)],
  ["address", (side) => side.token.address],
  ["amount", (side) => side.amount],
  ["amount_decimal", (side) => side.amountDecimal],
];

const ROW: readonly (readonly [string, (node: SwapNode) => unknown])[] = [
  ["tx_hash", (node) => node.txHash],
  ["block_number", (node) => node.blockNumber],
  // What went in first and what came out last (a multi-hop transaction is one row).
  ["sell_token", (node) => toSide(node.sell)],
  ["buy_token", (node) => toSide(node.buy)],
  ["trade_volume_usd", (node) => node.volumeUSD],
];

/** The keys of a swap row, in the order they go out. */
export const SWAP_ROW_KEYS = ROW.map(([key]) => key);

/** The keys of a row's sell_token and buy_token, in the order they go out. */
export const SWAP_SIDE_KEYS = SIDE.map(([key]) => key);

const SIDE_SELECTION = "token { name symbol decimals address } amount amountDecimal(digits: 8)";

/** The GraphQL fields of a swap that its row is made of (SwapNode). */
export const SWAP_ROW_SELECTION = `txHash blockNumber sell { ${SIDE_SELECTION} } buy { ${SIDE_SELECTION} } volumeUSD`;

function toSide(side: AmountFields): Record<string, string> {
  return Object.fromEntries(SIDE.map(([key, read]) => [key, read(side)]));
}

/**
 * The row of a swap as a JSON object: what the renderer's bytes are JSON.stringify of.
 * @internal the reference the renderer is tested against.
 */
export function toSwapRow(node: SwapNode): Record<string, unknown> {
  return Object.fromEntries(ROW.map(([key, read]) => [key, read(node)]));
}
