import { describe, expect, test } from "vitest";
import { cleanTokenText } from "../../src/chain/cleanTokenText.js";

describe("cleanTokenText", () => {
  test("behavior: removes control, invisible and markup characters and collapses spaces", () => {
    expect(cleanTokenText("  A\u0000B\u0007 <b>\"x\"</b>\u202e\u200b 'y' `z` \\ ", 64)).toBe("AB bx/b y z");
    expect(cleanTokenText("line\nbreak\u2028sep\ttab", 64)).toBe("line break sep tab");
  });

  test("behavior: keeps letters of every script, emoji and ordinary punctuation", () => {
    expect(cleanTokenText("Tøkén 币 токен 🚀 S&P-500 (x2) 1.5%", 64)).toBe(
      "Tøkén 币 токен 🚀 S&P-500 (x2) 1.5%",
    );
    // Composed and decomposed forms compare equal after cleaning.
    expect(cleanTokenText("e\u0301", 64)).toBe("é");
  });

  test("behavior: cuts at maxLength code points with an ellipsis, never inside a surrogate pair", () => {
    expect(cleanTokenText("ABCDEFGH", 8)).toBe("ABCDEFGH");
    expect(cleanTokenText("ABCDEFGHI", 8)).toBe("ABCDEFG…");
    expect(cleanTokenText("🚀".repeat(10), 4)).toBe("🚀🚀🚀…");
    // Spaces collapse before the cut, and no space is left before the ellipsis.
    expect(cleanTokenText("AB  CD", 5)).toBe("AB CD");
    expect(cleanTokenText("AB  CDE", 4)).toBe("AB…");
  });
});
