import { describe, expect, test } from "vitest";
import {
  formatDecimal,
  formatPercent,
  formatTime,
  formatUsd,
  fromUnits,
  toUnits,
} from "../../web/src/format.js";

// The dashboard's display formatting works on the API's decimal strings, never through floats.
describe("dashboard formatting", () => {
  test("args: formatDecimal groups thousands and truncates the fraction", () => {
    expect(formatDecimal("1234567.891", 2)).toBe("1,234,567.89");
    expect(formatDecimal("-1234.5000", 3)).toBe("-1,234.5");
    expect(formatDecimal("999.999", 0)).toBe("999");
    expect(formatDecimal("0", 4)).toBe("0");
  });

  test("args: formatUsd always shows cents, truncated", () => {
    expect(formatUsd("1827.6")).toBe("$1,827.60");
    expect(formatUsd("1")).toBe("$1.00");
    expect(formatUsd("0.009")).toBe("$0.00");
    expect(formatUsd("12345678901234567890.129999")).toBe("$12,345,678,901,234,567,890.12");
  });

  test("behavior: toUnits and fromUnits convert between whole tokens and smallest units exactly", () => {
    expect(toUnits("2.5", 18)).toBe("2500000000000000000");
    expect(toUnits("1", 0)).toBe("1");
    expect(toUnits(" 0.000001 ", 6)).toBe("1");
    expect(fromUnits("1496180448085091394", 18)).toBe("1.496180448085091394");
    expect(fromUnits("2500000", 6)).toBe("2.5");
    expect(fromUnits("7", 0)).toBe("7");
    expect(fromUnits(toUnits("123.456", 8), 8)).toBe("123.456");
  });

  test("error: toUnits refuses what is not an amount, and more decimals than the token has", () => {
    expect(() => toUnits("1e18", 18)).toThrow("not an amount");
    expect(() => toUnits("-1", 18)).toThrow("not an amount");
    expect(() => toUnits("0.0000001", 6)).toThrow("6 decimals");
  });

  test("args: formatPercent shows a fraction of 1 as a percentage, truncated", () => {
    expect(formatPercent("0.0042")).toBe("0.42");
    expect(formatPercent("0.003")).toBe("0.3");
    expect(formatPercent("1")).toBe("100");
    expect(formatPercent("0.000049")).toBe("0");
  });

  test("args: formatTime is the UTC time of day", () => {
    expect(formatTime(1_700_000_000)).toBe("22:13:20");
  });
});
