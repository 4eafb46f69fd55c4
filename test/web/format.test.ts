import { describe, expect, test } from "vitest";
import { formatDecimal, formatTime, formatUsd, multiplyDecimal } from "../../web/src/format.js";

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

  test("behavior: multiplyDecimal is exact where floats are not", () => {
    expect(multiplyDecimal("0.1", "3")).toBe("0.3");
    expect(multiplyDecimal("2.5", "598.472179234036557869")).toBe("1496.1804480850913946725");
    expect(multiplyDecimal("10", "20")).toBe("200");
    expect(multiplyDecimal("0.001", "0.002")).toBe("0.000002");
  });

  test("args: formatTime is the UTC time of day", () => {
    expect(formatTime(1_700_000_000)).toBe("22:13:20");
  });
});
