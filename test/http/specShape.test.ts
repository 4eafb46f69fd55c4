import { describe, expect, test } from "vitest";
import {
  assertSpecShapeDailyVolumes,
  assertSpecShapeError,
  assertSpecShapeQuote,
  assertSpecShapeSwaps,
} from "../support/specShape.js";

// The spec helpers guard the wire contract in end-to-end tests too: they must reject near misses.
const token = {
  name: "Tether USD",
  symbol: "USDT",
  decimals: "18",
  address: "0x55d398326f99059ff775485246999027b3197955",
};
const swap = {
  tx_hash: `0x${"ab".repeat(32)}`,
  block_number: "100",
  sell_token: { ...token, amount: "2737788670269999999999", amount_decimal: "2737.78867026" },
  buy_token: {
    name: "BNB",
    symbol: "BNB",
    decimals: "18",
    address: "",
    amount: "4560000000000000000",
    amount_decimal: "4.56000000",
  },
  trade_volume_usd: "57477.112957506",
};
const days = [
  "2024-05-07",
  "2024-05-06",
  "2024-05-05",
  "2024-05-04",
  "2024-05-03",
  "2024-05-02",
  "2024-05-01",
].map((date) => ({ date, address_count: "0", trade_volume_usd: "0" }));

describe("specShape", () => {
  test("behavior: accepts bodies exactly as the spec shows them", () => {
    assertSpecShapeSwaps([swap]);
    assertSpecShapeQuote({ result: { network: "bsc", sell_token: token, buy_token: token, price: "598.2" } });
    assertSpecShapeDailyVolumes(days, { now: Date.parse("2024-05-07T12:00:00Z") / 1000 });
    expect(assertSpecShapeError({ error: "Unknown path /x." })).toBe("Unknown path /x.");
  });

  test("error: rejects numbers, wrong field order, rounding, uppercase, trailing zeros", () => {
    const bad = [
      [{ ...swap, block_number: 100 }],
      [
        {
          block_number: "100",
          tx_hash: swap.tx_hash,
          sell_token: swap.sell_token,
          buy_token: swap.buy_token,
          trade_volume_usd: "1",
        },
      ],
      [{ ...swap, sell_token: { ...swap.sell_token, amount_decimal: "2737.78867027" } }],
      [{ ...swap, sell_token: { ...swap.sell_token, amount_decimal: "2737.788670" } }],
      [{ ...swap, sell_token: { ...swap.sell_token, address: token.address.toUpperCase() } }],
      [{ ...swap, trade_volume_usd: "57477.1129575060" }],
      [{ ...swap, trade_volume_usd: "5.7e4" }],
      [swap, swap],
      [{ ...swap, block_number: "101" }, swap],
    ];
    for (const body of bad) expect(() => assertSpecShapeSwaps(body)).toThrow();
    expect(() =>
      assertSpecShapeQuote({ result: { network: "bsc", sell_token: token, buy_token: token, price: 598.2 } }),
    ).toThrow();
    expect(() => assertSpecShapeDailyVolumes(days.slice(0, 6))).toThrow();
    expect(() => assertSpecShapeDailyVolumes([...days].reverse())).toThrow();
    expect(() =>
      assertSpecShapeDailyVolumes(days, { now: Date.parse("2024-05-08T00:00:01Z") / 1000 }),
    ).toThrow();
    expect(() => assertSpecShapeError({ error: "bad", code: 400 })).toThrow();
  });
});
