import { expect } from "vitest";

/**
 * Assertions that a REST body matches spec/market-data-api.md and spec/decisions.md exactly:
 * field names and order, every value a string, lowercase addresses, 8-digit amount_decimal,
 * plain decimals without trailing zeros, 7 UTC days newest first. Reusable by end-to-end tests
 * over the real indexer: they check the shape, not fixture values.
 */

const NETWORKS = ["bsc", "eth", "polygon"];
const TOKEN_KEYS = ["name", "symbol", "decimals", "address"];
const AMOUNT_KEYS = [...TOKEN_KEYS, "amount", "amount_decimal"];
const SWAP_KEYS = ["tx_hash", "block_number", "sell_token", "buy_token", "trade_volume_usd"];
const DAY_KEYS = ["date", "address_count", "trade_volume_usd"];
const INTEGER = /^(0|[1-9]\d*)$/;
/** A plain decimal: no exponent, no sign, no leading zeros, no trailing zeros after the point. */
export const PLAIN_DECIMAL = /^(0|[1-9]\d*)(\.\d*[1-9])?$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;
const TX_HASH = /^0x[0-9a-f]{64}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function expectKeys(value: unknown, keys: string[], where: string): Record<string, unknown> {
  expect(isObject(value), `${where} is an object`).toBe(true);
  const object = value as Record<string, unknown>;
  expect(Object.keys(object), `${where} fields and their order`).toEqual(keys);
  return object;
}

function expectString(value: unknown, pattern: RegExp, where: string): string {
  expect(typeof value, `${where} is a JSON string`).toBe("string");
  expect(value as string, where).toMatch(pattern);
  return value as string;
}

// An independent derivation (integer arithmetic, no string slicing) of the 8-digit truncation.
function expectedAmountDecimal(amount: string, decimals: number): string {
  const scaled = (BigInt(amount) * 10n ** 8n) / 10n ** BigInt(decimals);
  return `${scaled / 10n ** 8n}.${(scaled % 10n ** 8n).toString().padStart(8, "0")}`;
}

/** Token metadata (quote sell_token / buy_token). */
export function assertSpecShapeToken(value: unknown, where = "token"): void {
  const token = expectKeys(value, TOKEN_KEYS, where);
  expect(typeof token.name, `${where}.name`).toBe("string");
  expect(typeof token.symbol, `${where}.symbol`).toBe("string");
  expectString(token.decimals, INTEGER, `${where}.decimals`);
  expectString(token.address, /^(0x[0-9a-f]{40})?$/, `${where}.address (lowercase, "" for the native coin)`);
}

/** Token with amount (swap sell_token / buy_token), amount_decimal checked against amount and decimals. */
export function assertSpecShapeTokenAmount(value: unknown, where = "token"): void {
  const token = expectKeys(value, AMOUNT_KEYS, where);
  assertSpecShapeToken(Object.fromEntries(TOKEN_KEYS.map((key) => [key, token[key]])), where);
  const amount = expectString(token.amount, INTEGER, `${where}.amount`);
  const decimal = expectString(token.amount_decimal, /^\d+\.\d{8}$/, `${where}.amount_decimal`);
  expect(decimal, `${where}.amount_decimal = amount / 10^decimals, truncated`).toBe(
    expectedAmountDecimal(amount, Number(token.decimals)),
  );
}

/** A /api/quote success body: {"result": {network, sell_token, buy_token, price}}. */
export function assertSpecShapeQuote(body: unknown, expected: { network?: string } = {}): void {
  const { result } = expectKeys(body, ["result"], "quote body");
  const quote = expectKeys(result, ["network", "sell_token", "buy_token", "price"], "result");
  expectString(quote.network, new RegExp(`^(${NETWORKS.join("|")})$`), "result.network");
  if (expected.network !== undefined) expect(quote.network).toBe(expected.network);
  assertSpecShapeToken(quote.sell_token, "result.sell_token");
  assertSpecShapeToken(quote.buy_token, "result.buy_token");
  expectString(quote.price, PLAIN_DECIMAL, "result.price");
}

/** A /api/swaps_24h success body: swaps ascending by block_number, each one transaction. */
export function assertSpecShapeSwaps(body: unknown): void {
  expect(Array.isArray(body), "swaps body is an array").toBe(true);
  const swaps = body as unknown[];
  const hashes = new Set<string>();
  let previous = -1n;
  swaps.forEach((value, i) => {
    const swap = expectKeys(value, SWAP_KEYS, `swaps[${i}]`);
    const hash = expectString(swap.tx_hash, TX_HASH, `swaps[${i}].tx_hash`);
    expect(hashes.has(hash), `swaps[${i}] is the only element of its transaction`).toBe(false);
    hashes.add(hash);
    const block = BigInt(expectString(swap.block_number, INTEGER, `swaps[${i}].block_number`));
    expect(block >= previous, `swaps[${i}] ascending by block_number`).toBe(true);
    previous = block;
    assertSpecShapeTokenAmount(swap.sell_token, `swaps[${i}].sell_token`);
    assertSpecShapeTokenAmount(swap.buy_token, `swaps[${i}].buy_token`);
    expectString(swap.trade_volume_usd, PLAIN_DECIMAL, `swaps[${i}].trade_volume_usd`);
  });
}

/**
 * A /api/trade_volume_usd_7d success body: exactly 7 consecutive UTC dates, newest first
 * (today first when `now`, unix seconds, is given); a day without trades is "0" and "0".
 */
export function assertSpecShapeDailyVolumes(body: unknown, options: { now?: number } = {}): void {
  expect(Array.isArray(body), "volumes body is an array").toBe(true);
  const days = body as unknown[];
  expect(days, "exactly 7 days").toHaveLength(7);
  let newest: number | undefined;
  days.forEach((value, i) => {
    const day = expectKeys(value, DAY_KEYS, `days[${i}]`);
    const date = expectString(day.date, /^\d{4}-\d{2}-\d{2}$/, `days[${i}].date`);
    const time = Date.parse(`${date}T00:00:00Z`);
    expect(new Date(time).toISOString().slice(0, 10), `days[${i}].date is a real date`).toBe(date);
    newest ??= time;
    expect(time, `days[${i}] is ${i} days before the first`).toBe(newest - i * 86_400_000);
    const count = expectString(day.address_count, INTEGER, `days[${i}].address_count`);
    const volume = expectString(day.trade_volume_usd, PLAIN_DECIMAL, `days[${i}].trade_volume_usd`);
    if (count === "0") expect(volume, `days[${i}] without traders has no volume`).toBe("0");
  });
  if (options.now !== undefined) {
    expect((days[0] as Record<string, unknown>).date, "the first day is today (UTC)").toBe(
      new Date(options.now * 1000).toISOString().slice(0, 10),
    );
  }
}

/** An error body: exactly {"error": "<one sentence>"}. */
export function assertSpecShapeError(body: unknown): string {
  const { error } = expectKeys(body, ["error"], "error body");
  const message = expectString(error, /^\S[^\n]*[.!?]$/, "error message (one sentence)");
  expect(message.length, "error message is short").toBeLessThan(300);
  expect(message, "no stack or internals").not.toMatch(/\bat \S+:\d+|Error:|SELECT |node_modules/);
  return message;
}

/** Headers every REST answer carries: JSON in UTF-8 and open CORS. */
export function assertSpecHeaders(response: Response): void {
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(response.headers.get("access-control-allow-origin")).toBe("*");
}
