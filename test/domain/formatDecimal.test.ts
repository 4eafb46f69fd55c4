import { describe, expect, test } from "vitest";
import { formatDecimal } from "../../src/domain/formatDecimal.js";

describe("formatDecimal", () => {
  test("args: zero is 0 exact and padded when fixed", () => {
    expect(formatDecimal(0n, 18)).toBe("0");
    expect(formatDecimal(0n, 18, 8)).toBe("0.00000000");
    expect(formatDecimal(0n, 0)).toBe("0");
    expect(formatDecimal(0n, 0, 8)).toBe("0.00000000");
  });

  test("behavior: exact form removes trailing zeros and keeps every significant digit", () => {
    expect(formatDecimal(57_477_112_957_506_000_000_000n, 18)).toBe("57477.112957506");
    expect(formatDecimal(1_000_000_000_000_000_000n, 18)).toBe("1");
    expect(formatDecimal(1n, 18)).toBe("0.000000000000000001");
    expect(formatDecimal(1_500_000n, 6)).toBe("1.5");
    expect(formatDecimal(123_456_789n, 8)).toBe("1.23456789");
    expect(formatDecimal(42n, 0)).toBe("42");
  });

  test("behavior: fixed form truncates toward zero, never rounds", () => {
    expect(formatDecimal(2_737_788_670_269_999_999_999n, 18, 8)).toBe("2737.78867026");
    expect(formatDecimal(999_999_999_999_999_999n, 18, 8)).toBe("0.99999999");
    expect(formatDecimal(9n, 18, 8)).toBe("0.00000000");
    expect(formatDecimal(1_234_567_891n, 6, 8)).toBe("1234.56789100");
    expect(formatDecimal(2_057_613n, 8, 8)).toBe("0.02057613");
    expect(formatDecimal(5n, 0, 8)).toBe("5.00000000");
    expect(formatDecimal(123n, 2, 0)).toBe("1");
  });

  test("behavior: huge values stay exact (no float anywhere)", () => {
    const huge = 2n ** 256n - 1n;
    expect(formatDecimal(huge, 18)).toBe(
      "115792089237316195423570985008687907853269984665640564039457.584007913129639935",
    );
    expect(formatDecimal(huge, 18, 8)).toBe(
      "115792089237316195423570985008687907853269984665640564039457.58400791",
    );
    expect(formatDecimal(huge, 0)).toBe(huge.toString());
  });

  test("behavior: negative values truncate toward zero and never print -0", () => {
    expect(formatDecimal(-1_500_000n, 6)).toBe("-1.5");
    expect(formatDecimal(-1n, 18, 8)).toBe("0.00000000");
    expect(formatDecimal(-123_456_789_123n, 10, 8)).toBe("-12.34567891");
  });

  test("behavior: digit slicing agrees with BigInt division for random amounts, decimals and digits", () => {
    // The division the formatter replaced, kept here as the reference.
    const byDivision = (value: bigint, decimals: number, fixed?: number) => {
      const abs = value < 0n ? -value : value;
      const scale = 10n ** BigInt(decimals);
      const fraction = decimals === 0 ? "" : (abs % scale).toString().padStart(decimals, "0");
      const digits =
        fixed === undefined ? fraction.replace(/0+$/, "") : fraction.slice(0, fixed).padEnd(fixed, "0");
      const text = digits === "" ? (abs / scale).toString() : `${abs / scale}.${digits}`;
      return value < 0n && /[1-9]/.test(text) ? `-${text}` : text;
    };
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 5_000; i++) {
      const length = 1 + next(80);
      let digits = "";
      for (let d = 0; d < length; d++) digits += String(next(10));
      const value = BigInt(digits) * (next(4) === 0 ? -1n : 1n);
      const decimals = next(40);
      const fixed = next(3) === 0 ? undefined : next(30);
      expect(formatDecimal(value, decimals, fixed)).toBe(byDivision(value, decimals, fixed));
    }
  });

  test("error: negative or fractional decimals are refused", () => {
    expect(() => formatDecimal(1n, -1)).toThrow(RangeError);
    expect(() => formatDecimal(1n, 1.5)).toThrow(RangeError);
  });
});
