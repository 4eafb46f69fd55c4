import { expect } from "vitest";

/**
 * Assertions that a REST body matches spec/market-data-api.md and spec/decisions.md exactly:
 * field names and order, every value a string, lowercase addresses, 8-digit amount_decimal,
 * plain decimals without trailing zeros, 7 UTC days newest first. Reusable by end-to-end tests
 * over the real indexer: they check the shape, not fixture values. Each helper collects every
 * problem with plain checks (fast on thousands of swaps) and fails once, listing them all.
 */

const NETWORKS = ["bsc", "eth", "polygon"];
const TOKEN_KEYS = ["name", "symbol", "decimals", "address"];
const AMOUNT_KEYS = [...TOKEN_KEYS, "amount", "amount_decimal"];
const SWAP_KEYS = ["tx_hash", "block_number", "sell_token", "buy_token", "trade_volume_usd"];
const DAY_KEYS = ["date", "address_count", "trade_volume_usd"];
const INTEGER = /^(0|[1-9]\d*)$/;
/** A plain decimal: no exponent, no sign, no leading zeros, no trailing zeros after the point. */
const PLAIN_DECIMAL = /^(0|[1-9]\d*)(\.\d*[1-9])?$/;
const TOKEN_ADDRESS = /^(0x[0-9a-f]{40})?$/;
const TX_HASH = /^0x[0-9a-f]{64}$/;
const AMOUNT_DECIMAL = /^(0|[1-9]\d*)\.\d{8}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Problems = string[];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkKeys(
  value: unknown,
  keys: string[],
  where: string,
  problems: Problems,
): Record<string, unknown> {
  if (!isObject(value)) {
    problems.push(`${where}: expected an object, got ${JSON.stringify(value)}`);
    return {};
  }
  const actual = Object.keys(value);
  if (actual.join() !== keys.join())
    problems.push(`${where}: fields ${actual.join(",")}, expected ${keys.join(",")}`);
  return value;
}

function checkString(value: unknown, pattern: RegExp, where: string, problems: Problems): string | undefined {
  if (typeof value !== "string") {
    problems.push(`${where}: expected a JSON string, got ${JSON.stringify(value)}`);
    return undefined;
  }
  if (!pattern.test(value)) {
    problems.push(`${where}: ${JSON.stringify(value)} does not match ${pattern}`);
    return undefined;
  }
  return value;
}

function report(problems: Problems, what: string): void {
  expect(problems, `${what} does not match the spec`).toEqual([]);
}

// An independent derivation (integer arithmetic, no string slicing) of the 8-digit truncation.
function expectedAmountDecimal(amount: string, decimals: number): string {
  const scaled = (BigInt(amount) * 10n ** 8n) / 10n ** BigInt(decimals);
  return `${scaled / 10n ** 8n}.${(scaled % 10n ** 8n).toString().padStart(8, "0")}`;
}

function checkTokenFields(token: Record<string, unknown>, where: string, problems: Problems): void {
  checkString(token.name, /^/, `${where}.name`, problems);
  checkString(token.symbol, /^/, `${where}.symbol`, problems);
  checkString(token.decimals, INTEGER, `${where}.decimals`, problems);
  checkString(
    token.address,
    TOKEN_ADDRESS,
    `${where}.address (lowercase hex, "" for the native coin)`,
    problems,
  );
}

function checkToken(value: unknown, where: string, problems: Problems): void {
  checkTokenFields(checkKeys(value, TOKEN_KEYS, where, problems), where, problems);
}

function checkTokenAmount(value: unknown, where: string, problems: Problems): void {
  const token = checkKeys(value, AMOUNT_KEYS, where, problems);
  checkTokenFields(token, where, problems);
  const amount = checkString(token.amount, INTEGER, `${where}.amount`, problems);
  const decimal = checkString(token.amount_decimal, AMOUNT_DECIMAL, `${where}.amount_decimal`, problems);
  if (amount !== undefined && decimal !== undefined && typeof token.decimals === "string") {
    const expected = expectedAmountDecimal(amount, Number(token.decimals));
    if (decimal !== expected)
      problems.push(`${where}.amount_decimal: ${decimal}, expected ${expected} (truncated)`);
  }
}

/** A /api/quote success body: {"result": {network, sell_token, buy_token, price}}. */
export function assertSpecShapeQuote(body: unknown, expected: { network?: string } = {}): void {
  const problems: Problems = [];
  const { result } = checkKeys(body, ["result"], "quote body", problems);
  const quote = checkKeys(result, ["network", "sell_token", "buy_token", "price"], "result", problems);
  checkString(quote.network, new RegExp(`^(${NETWORKS.join("|")})$`), "result.network", problems);
  if (expected.network !== undefined && quote.network !== expected.network) {
    problems.push(`result.network: ${JSON.stringify(quote.network)}, expected ${expected.network}`);
  }
  checkToken(quote.sell_token, "result.sell_token", problems);
  checkToken(quote.buy_token, "result.buy_token", problems);
  checkString(quote.price, PLAIN_DECIMAL, "result.price", problems);
  report(problems, "quote body");
}

/** A /api/swaps_24h success body: swaps ascending by block_number, one element per transaction. */
export function assertSpecShapeSwaps(body: unknown): void {
  const problems: Problems = [];
  if (!Array.isArray(body)) {
    report([`swaps body: expected an array, got ${JSON.stringify(body)?.slice(0, 200)}`], "swaps body");
    return;
  }
  const hashes = new Set<string>();
  let previous = -1n;
  let previousHash: string | undefined;
  let previousText: string | undefined;
  body.forEach((value: unknown, i) => {
    const where = `swaps[${i}]`;
    const swap = checkKeys(value, SWAP_KEYS, where, problems);
    const hash = checkString(swap.tx_hash, TX_HASH, `${where}.tx_hash`, problems);
    if (hash !== undefined) {
      // A transaction with several independent swaps has one element per trade, side by side;
      // the very same element twice is a duplicate.
      const text = JSON.stringify(value);
      if (hashes.has(hash) && hash !== previousHash)
        problems.push(`${where}: transaction ${hash} appears apart`);
      else if (text === previousText) problems.push(`${where}: transaction ${hash} appears twice`);
      hashes.add(hash);
      previousHash = hash;
      previousText = text;
    }
    const block = checkString(swap.block_number, INTEGER, `${where}.block_number`, problems);
    if (block !== undefined) {
      if (BigInt(block) < previous)
        problems.push(`${where}: block ${block} after block ${previous} (not ascending)`);
      previous = BigInt(block);
    }
    checkTokenAmount(swap.sell_token, `${where}.sell_token`, problems);
    checkTokenAmount(swap.buy_token, `${where}.buy_token`, problems);
    checkString(swap.trade_volume_usd, PLAIN_DECIMAL, `${where}.trade_volume_usd`, problems);
  });
  report(problems.slice(0, 50), "swaps body");
}

/**
 * A /api/trade_volume_usd_7d success body: exactly 7 consecutive UTC dates, newest first
 * (today first when `now`, unix seconds, is given); a day without traders has volume "0".
 */
export function assertSpecShapeDailyVolumes(body: unknown, options: { now?: number } = {}): void {
  const problems: Problems = [];
  if (!Array.isArray(body) || body.length !== 7) {
    report(
      [`volumes body: expected an array of 7 days, got ${JSON.stringify(body)?.slice(0, 200)}`],
      "volumes body",
    );
    return;
  }
  let newest: number | undefined;
  body.forEach((value: unknown, i) => {
    const where = `days[${i}]`;
    const day = checkKeys(value, DAY_KEYS, where, problems);
    const date = checkString(day.date, DATE, `${where}.date`, problems);
    if (date !== undefined) {
      const time = Date.parse(`${date}T00:00:00Z`);
      if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== date) {
        problems.push(`${where}.date: ${date} is not a real date`);
      } else {
        newest ??= time;
        if (time !== newest - i * 86_400_000)
          problems.push(`${where}.date: ${date} is not ${i} days before the first`);
      }
    }
    const count = checkString(day.address_count, INTEGER, `${where}.address_count`, problems);
    const volume = checkString(day.trade_volume_usd, PLAIN_DECIMAL, `${where}.trade_volume_usd`, problems);
    if (count === "0" && volume !== undefined && volume !== "0")
      problems.push(`${where}: volume ${volume} without traders`);
  });
  if (options.now !== undefined) {
    const today = new Date(options.now * 1000).toISOString().slice(0, 10);
    const first = (body[0] as Record<string, unknown> | undefined)?.date;
    if (first !== today)
      problems.push(`days[0].date: ${JSON.stringify(first)}, expected today (UTC) ${today}`);
  }
  report(problems, "volumes body");
}

/** An error body: exactly {"error": "<one sentence>"}; returns the message. */
export function assertSpecShapeError(body: unknown): string {
  const problems: Problems = [];
  const { error } = checkKeys(body, ["error"], "error body", problems);
  const message = checkString(error, /^\S[^\n]*[.!?]$/, "error (one sentence)", problems) ?? "";
  if (message.length >= 300) problems.push(`error: ${message.length} characters is not one short sentence`);
  if (/\bat \S+:\d+|Error:|SELECT |node_modules/.test(message))
    problems.push(`error: leaks internals: ${message}`);
  report(problems, "error body");
  return message;
}

/** Headers every REST answer carries: JSON in UTF-8 and open CORS. */
export function assertSpecHeaders(response: { headers: Headers }): void {
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(response.headers.get("access-control-allow-origin")).toBe("*");
}
