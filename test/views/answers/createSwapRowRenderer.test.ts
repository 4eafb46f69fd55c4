import { describe, expect, test } from "vitest";
import type { Trade } from "../../../src/domain/types.js";
import { createSwapRowRenderer } from "../../../src/views/answers/createSwapRowRenderer.js";
import {
  SWAP_ROW_KEYS,
  SWAP_SIDE_KEYS,
  type SwapNode,
  type TokenFields,
  toSwapRow,
} from "../../../src/views/answers/swapRow.js";
import { expectedSwapBody } from "../../support/expectedSwapBody.js";
import { openApiSchema } from "../../support/openApiSchema.js";

const SWAP_SCHEMA = openApiSchema("Swap");
const TOKEN_AMOUNT_SCHEMA = openApiSchema("TokenAmount");

// What the renderer must equal: JSON.stringify of the rows as the one description makes them.
function specBytes(nodes: SwapNode[]): string {
  return JSON.stringify(nodes.map(toSwapRow));
}

function node(i: number, sell: TokenFields, buy: TokenFields, text = ""): SwapNode {
  return {
    txHash: `0x${i.toString(16).padStart(64, "0")}${text}`,
    blockNumber: String(40_000_000 + i),
    sell: { token: sell, amount: `${i + 1}000000000000000000`, amountDecimal: `${i + 1}.00000000` },
    buy: { token: buy, amount: String(i * 7), amountDecimal: `0.${String(i).padStart(8, "0")}` },
    volumeUSD: `${i}.5${text}`,
  };
}

/** Renders `nodes` in pages of `size` and joins the pages' bytes. */
function render(nodes: SwapNode[], size: number): string {
  const renderer = createSwapRowRenderer();
  const pages: Buffer[] = [];
  for (let at = 0; at === 0 || at < nodes.length; at += size) {
    const page = nodes.slice(at, at + size);
    pages.push(
      renderer.render(
        page.map((n) => ({ node: n })),
        at + size >= nodes.length,
      ),
    );
  }
  return Buffer.concat(pages).toString("utf8");
}

const USDT: TokenFields = {
  name: "Tether USD",
  symbol: "USDT",
  decimals: 18,
  address: "0x55d398326f99059ff775485246999027b3197955",
};
const NATIVE: TokenFields = { name: "BNB", symbol: "BNB", decimals: 18, address: "" };

describe("createSwapRowRenderer", () => {
  test("behavior: pages of any size concatenate to JSON.stringify of the spec's array", () => {
    const nodes = Array.from({ length: 23 }, (_, i) =>
      node(i, i % 2 === 0 ? USDT : NATIVE, i % 3 === 0 ? NATIVE : USDT),
    );
    for (const size of [1, 2, 7, 22, 23, 100]) expect(render(nodes, size)).toBe(specBytes(nodes));
    expect(render([], 5)).toBe("[]");
  });

  test("behavior: text JSON escapes (quotes, backslashes, controls, non-ASCII, lone surrogates) is written as JSON.stringify writes it", () => {
    const hostile: TokenFields[] = [
      {
        name: 'Say "hi"',
        symbol: "B\\S",
        decimals: 6,
        address: "0x1111111111111111111111111111111111111111",
      },
      {
        name: "Line\nbreak\ttab\u0000nul\u001f",
        symbol: "\u007f",
        decimals: 0,
        address: "0x2222222222222222222222222222222222222222",
      },
      {
        name: "Ünïcødé 🚀 ₿",
        symbol: "\u2028\u2029",
        decimals: 8,
        address: "0x3333333333333333333333333333333333333333",
      },
      {
        name: "lone \ud800 surrogate \udfff",
        symbol: "",
        decimals: 255,
        address: "0x4444444444444444444444444444444444444444",
      },
    ];
    // Each escape alone in a value, and together.
    const texts = ["é", "\n", "\u0001", "\u2028", '"', "\\", "🚀", "\ud800", '"\\é\n'];
    const values = texts.map((text, i) => node(20 + i, USDT, NATIVE, text));
    const nodes = hostile.flatMap((token, i) => [
      node(i, token, USDT, i % 2 === 0 ? '"\\é' : ""),
      node(i + 10, NATIVE, token),
    ]);
    nodes.push(...values);
    for (const size of [1, 3, 8]) expect(render(nodes, size)).toBe(specBytes(nodes));
  });

  test("behavior: a token's metadata that changes within a list shows the new values at once", () => {
    const renamed: TokenFields = { ...USDT, name: "Tether USD v2" };
    const moreDecimals: TokenFields = { ...USDT, decimals: 6 };
    const nodes = [
      node(0, USDT, NATIVE),
      node(1, renamed, NATIVE),
      node(2, USDT, moreDecimals),
      node(3, USDT, NATIVE),
    ];
    expect(render(nodes, 2)).toBe(specBytes(nodes));
  });

  test("behavior: more distinct tokens than the renderer keeps still render exactly", () => {
    const tokens = Array.from(
      { length: 5_000 },
      (_, i): TokenFields => ({
        name: `Token ${i}`,
        symbol: `T${i}`,
        decimals: i % 19,
        address: `0x${i.toString(16).padStart(40, "0")}`,
      }),
    );
    const nodes = tokens.map((token, i) => node(i, token, tokens[(i * 7) % tokens.length]!));
    expect(render(nodes, 250)).toBe(specBytes(nodes));
  });

  test("behavior: the row is described once: the renderer's keys, the OpenAPI schema's and the contract helper's are swapRow's, in its order", () => {
    const rendered = JSON.parse(render([node(1, USDT, USDT)], 1)) as Record<
      string,
      Record<string, unknown>
    >[];
    expect(Object.keys(rendered[0]!)).toEqual(SWAP_ROW_KEYS);
    expect(Object.keys(rendered[0]!.sell_token!)).toEqual(SWAP_SIDE_KEYS);
    expect(Object.keys(rendered[0]!.buy_token!)).toEqual(SWAP_SIDE_KEYS);
    expect(Object.keys(SWAP_SCHEMA.properties ?? {})).toEqual(SWAP_ROW_KEYS);
    expect(SWAP_SCHEMA.required).toEqual(SWAP_ROW_KEYS);
    expect(Object.keys(TOKEN_AMOUNT_SCHEMA.properties ?? {})).toEqual(SWAP_SIDE_KEYS);
    expect(TOKEN_AMOUNT_SCHEMA.required).toEqual(SWAP_SIDE_KEYS);
    const trade = {
      txHash: "0x01",
      blockNumber: 1n,
      tokenIn: "0x02",
      amountIn: 1n,
      tokenOut: "0x03",
      amountOut: 2n,
      volumeUsd: 0n,
    } as unknown as Trade;
    const body = expectedSwapBody(trade, () => ({ name: "T", symbol: "T", decimals: "0" }));
    expect(Object.keys(body)).toEqual(SWAP_ROW_KEYS);
    expect(Object.keys(body.sell_token)).toEqual(SWAP_SIDE_KEYS);
  });
});
