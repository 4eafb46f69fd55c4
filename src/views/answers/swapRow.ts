import { formatDecimal } from "../../domain/formatDecimal.js";
import type { Token, Trade } from "../../domain/types.js";

/*
 * The swap row of /api/swaps_24h (and of the export), described once: its keys in the order they
 * go out, each with the SwapNode field it is read from. A SwapNode is a trade as GraphQL's Swap
 * shows it (same names, same formatting: swapNodeOf), so the rows read through the GraphQL `swaps`
 * query are the same bytes (test/http/answerReaders.test.ts renders both). The renderer writes
 * SWAP_ROW_KEYS and SWAP_SIDE_KEYS in this order, and its bytes are JSON.stringify of toSwapRow;
 * tests hold the OpenAPI schema (SWAP_SCHEMA) to these keys.
 */

/** Token fields of a swap side (GraphQL's `token { name symbol decimals address }`). */
export interface TokenFields {
  name: string;
  symbol: string;
  decimals: number;
  address: string;
}

/** A side of a swap (GraphQL's `sell` or `buy`). */
export interface AmountFields {
  token: TokenFields;
  amount: string;
  amountDecimal: string;
}

/** A swap as the list's row reads it (GraphQL's Swap fields of the row). */
export interface SwapNode {
  txHash: string;
  blockNumber: string;
  sell: AmountFields;
  buy: AmountFields;
  volumeUSD: string;
}

/** A swap as the export's row reads it: the list's fields and what keys and dates a row. */
export interface ExportSwapNode extends SwapNode {
  logIndex: number;
  timestamp: number;
  sender: string;
  tracked: boolean;
  pools: string[];
}

/** A keyset page of swaps, the rows' source (as GraphQL's `swaps` gives it). */
export interface SwapPage<Node extends SwapNode = SwapNode> {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { node: Node }[];
}

const USD_DECIMALS = 18;
// amount_decimal's digits after the point (GraphQL's amountDecimal(digits: 8)).
const AMOUNT_DIGITS = 8;

/** A trade and its tokens' metadata as the rows read them (GraphQL's Swap, formatted the same). */
export function swapNodeOf(trade: Trade, sell: Token, buy: Token): ExportSwapNode {
  return {
    txHash: trade.txHash,
    blockNumber: trade.blockNumber.toString(),
    sell: amountOf(sell, trade.amountIn),
    buy: amountOf(buy, trade.amountOut),
    volumeUSD: formatDecimal(trade.volumeUsd, USD_DECIMALS),
    logIndex: trade.logIndex,
    timestamp: trade.timestamp,
    sender: trade.sender,
    tracked: trade.tracked,
    pools: trade.pools,
  };
}

function amountOf(token: Token, amount: bigint): AmountFields {
  return {
    token,
    amount: amount.toString(),
    amountDecimal: formatDecimal(amount, token.decimals, AMOUNT_DIGITS),
  };
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
