import type { RouteDoc } from "../routeDoc.js";
import {
  QUOTE_BODY_SCHEMA,
  SWAP_EXPORT_ROW_SCHEMA,
  SWAPS_BODY_SCHEMA,
  VOLUMES_BODY_SCHEMA,
} from "./restSchemas.js";

// Examples are real answers of the demo (README); a test validates each against its schema.
const TOKEN_EXAMPLE = {
  name: "Tether USD",
  symbol: "USDT",
  decimals: "18",
  address: "0x454c4a3f632d909ca3bca7218cabbc86fc5c5481",
};
const QUOTE_EXAMPLE = {
  result: {
    network: "bsc",
    sell_token: { name: "BNB", symbol: "BNB", decimals: "18", address: "" },
    buy_token: TOKEN_EXAMPLE,
    price: "675.123167662017778396",
  },
};
const SWAP_EXAMPLE = {
  tx_hash: "0xfa8362a45c6ec9229960e12827388367d75b3fffaee734e293b370cf2a18755b",
  block_number: "506",
  sell_token: {
    name: "Wrapped Ether",
    symbol: "WETH",
    decimals: "18",
    address: "0xa5bdd56ca4791274332db3f437449be6f6d22365",
    amount: "600000000000000",
    amount_decimal: "0.00060000",
  },
  buy_token: {
    name: "Rug Pull",
    symbol: "RUG",
    decimals: "9",
    address: "0xe813f33d5ab8570e13f59f36b79d4c75f7ffd008",
    amount: "4575851852370",
    amount_decimal: "4575.85185237",
  },
  trade_volume_usd: "1.790911254387472626",
};
// One line of /api/swaps_export: the list's element with what keys and dates it.
const { tx_hash, block_number, sell_token, buy_token, trade_volume_usd } = SWAP_EXAMPLE;
const EXPORT_ROW_EXAMPLE = {
  tx_hash,
  log_index: 3,
  block_number,
  timestamp: 1795651200,
  sender: "0xa11ce00000000000000000000000000000000001",
  sell_token,
  buy_token,
  trade_volume_usd,
  tracked: true,
  pools: ["0x3b1d0a43a4ed3d5c0d7a8d52c6f6bd4e0b1b7e0a"],
};
const VOLUMES_EXAMPLE = [
  ["2026-11-22", "40", "59059.545101709486037981"],
  ["2026-11-21", "60", "582024.416343579637626289"],
  ["2026-11-20", "58", "571210.5"],
  ["2026-11-19", "60", "590114.25"],
  ["2026-11-18", "57", "560981.125"],
  ["2026-11-17", "59", "577745.0625"],
  ["2026-11-16", "0", "0"],
].map(([date, address_count, trade_volume_usd]) => ({ date, address_count, trade_volume_usd }));

/** What /openapi.json says of each /api route, by path (restPlugin hands each to its route). */
export const REST_DOCS: Record<string, RouteDoc> = {
  "/api/quote": {
    operationId: "getQuote",
    tag: "Market data",
    summary: "Current swap price of a sell token in a buy token",
    description:
      "The amount of `buyToken` received for exactly one whole `sellToken`, along the best route of up " +
      "to 3 hops through the network's base tokens across every indexed DEX, pool fees included (each " +
      "pool's exact math: V2's constant product with its fee, V3's ticks). A token is a symbol of the network's token list (case-insensitive; `BNB`, " +
      "`ETH`, `POL` or `MATIC` mean the native coin) or any ERC-20 address. The same token on both sides " +
      "(the native coin and its wrapped token count as the same) is a 400.",
    ok: { description: "The quote.", schema: QUOTE_BODY_SCHEMA, example: QUOTE_EXAMPLE },
    kept: true,
    errors: {
      "422": {
        description: "A well-formed request that has no answer: no liquidity route between the tokens.",
        example: "No liquidity route from LONELY to USDT on bsc in the indexed pools.",
      },
    },
  },
  "/api/swaps_24h": {
    operationId: "listSwaps24h",
    tag: "Market data",
    summary: "Swap transactions of the last 24 hours",
    description:
      "Every trade on the indexed pools in the last 24 hours, ascending by block then position in the " +
      "block. A multi-hop transaction is one element (what went in first, what came out last); a " +
      "transaction with several independent swaps (an aggregator) is one element per swap, side by side " +
      "with the same tx_hash. The native coin appears when the router wrapped or unwrapped it. The array is streamed " +
      "(chunked, no Content-Length) and pinned to the block in `X-Indexed-Block`. With `limit`, an " +
      "answer that has more after it carries `X-Next-Cursor` and `Link`; pass the cursor back to continue.",
    ok: { description: "The swaps, oldest first.", schema: SWAPS_BODY_SCHEMA, example: [SWAP_EXAMPLE] },
    headers: ["X-Next-Cursor", "Link"],
  },
  "/api/swaps_export": {
    operationId: "exportSwaps",
    tag: "Market data",
    summary: "Every stored swap of a window, streamed as NDJSON",
    description:
      "Extension for bulk readers: every stored swap of the network with from <= timestamp < to, at or below " +
      "`atBlock` (default: the block indexed when the request started, in `X-Indexed-Block`), one JSON object " +
      "a line (`application/x-ndjson`), ascending by block then position in the block. Each line is a " +
      "/api/swaps_24h element with `log_index`, `timestamp`, `sender`, `tracked` and `pools`. The answer is " +
      "streamed (chunked, no Content-Length) one keyset page at a time as the client reads, so any window " +
      "can be read at the speed of the connection; the window is limited by what the server keeps (its " +
      "`windowDays`). A bad window is a JSON 400 before any line.",
    ok: {
      description: "The swaps, oldest first, one SwapExportRow a line.",
      schema: SWAP_EXPORT_ROW_SCHEMA,
      example: EXPORT_ROW_EXAMPLE,
      media: "application/x-ndjson",
    },
  },
  "/api/trade_volume_usd_7d": {
    operationId: "listTradeVolume7d",
    tag: "Market data",
    summary: "Trade volume in USD and trading addresses per day, last 7 days",
    description:
      "Exactly 7 UTC days, newest first (today so far and the 6 days before); a day without trades is " +
      'present with `"0"` and `"0"`. `address_count` is the number of distinct transaction senders that ' +
      "swapped that day, `trade_volume_usd` the exact sum of that day's trades.",
    ok: { description: "Seven days, newest first.", schema: VOLUMES_BODY_SCHEMA, example: VOLUMES_EXAMPLE },
    kept: true,
  },
};
