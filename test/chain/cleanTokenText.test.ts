import { describe, expect, test } from "vitest";
import { cleanTokenText } from "../../src/chain/cleanTokenText.js";

describe("cleanTokenText", () => {
  test("behavior: quotes, apostrophes, angle brackets, backticks and backslashes are data and stay", () => {
    expect(cleanTokenText("Pooh's", 64)).toBe("Pooh's");
    expect(cleanTokenText("<b>", 64)).toBe("<b>");
    expect(cleanTokenText(`<img src=x onerror="alert('1')"> \`x\` \\ & &amp;`, 64)).toBe(
      `<img src=x onerror="alert('1')"> \`x\` \\ & &amp;`,
    );
  });

  test("behavior: removes controls (Cc) and format characters (Cf), joining what they split", () => {
    // NUL, BEL, ESC, DEL, C1 controls; bidi override, isolates and marks; zero-width space.
    expect(cleanTokenText("A\u0000B\u0007C\u001bD\u007fE\u0090F", 64)).toBe("ABCDEF");
    expect(cleanTokenText("Evil\u202e lived\u2066\u2069\u200e\u200f\u061c", 64)).toBe("Evil lived");
    expect(cleanTokenText("zero\u200bwidth\u200cnon\u2060joiner\u2061\u2062\u2063\u2064", 64)).toBe(
      "zerowidthnonjoiner",
    );
    // Byte order mark, soft hyphen, tags (U+E0001..U+E007F).
    expect(cleanTokenText("\ufeffBOM\u00adSHY\u{e0041}\u{e007f}", 64)).toBe("BOMSHY");
  });

  test("behavior: removes the other invisible (default-ignorable) characters, lone surrogates and U+FFFD", () => {
    // Hangul fillers, combining grapheme joiner, Khmer inherent vowels.
    expect(cleanTokenText("A\u3164B\u115fC\u1160D\uffa0E\u034fF\u17b4G\u17b5", 64)).toBe("ABCDEFG");
    expect(cleanTokenText("\ud800x\udfffy\ufffd", 64)).toBe("xy");
  });

  test("behavior: one variation selector after a visible character stays; stray or stacked ones go", () => {
    expect(cleanTokenText("\u2764\ufe0f", 64)).toBe("\u2764\ufe0f");
    expect(cleanTokenText("\u845b\u{e0100}", 64)).toBe("\u845b\u{e0100}");
    // Data hidden in a run of selectors after one emoji, or a selector with nothing before it.
    expect(cleanTokenText(`😀${"\ufe00\ufe01\u{e0101}".repeat(4)}`, 64)).toBe("😀\ufe00");
    expect(cleanTokenText("\ufe0fA \ufe0fB", 64)).toBe("A B");
  });

  test("behavior: a zero-width joiner stays only inside an emoji sequence", () => {
    const family = "👨\u200d👩\u200d👧";
    const developer = "👩🏽\u200d💻";
    const heart = "❤\ufe0f\u200d🔥";
    expect(cleanTokenText(`${family} ${developer} ${heart}`, 64)).toBe(`${family} ${developer} ${heart}`);
    expect(cleanTokenText("a\u200db \u200d👩 👩\u200d", 64)).toBe("ab 👩 👩");
  });

  test("behavior: tabs, line breaks and Unicode separators become one space; the ends are trimmed", () => {
    expect(cleanTokenText(" line\nbreak\r\n\u2028sep\ttab\u00a0nbsp\u3000wide\u0085 ", 64)).toBe(
      "line break sep tab nbsp wide",
    );
    // A removed character between spaces leaves one space.
    expect(cleanTokenText("A \u200b B", 64)).toBe("A B");
  });

  test("behavior: keeps letters of every script, emoji, private-use characters and ordinary punctuation", () => {
    expect(cleanTokenText("Tøkén 币 токен 🚀 S&P-500 (x2) 1.5% \ue000", 64)).toBe(
      "Tøkén 币 токен 🚀 S&P-500 (x2) 1.5% \ue000",
    );
    // NFC: composed and decomposed forms compare equal after cleaning.
    expect(cleanTokenText("e\u0301", 64)).toBe("é");
  });

  test("behavior: cuts at maxLength code points with an ellipsis, at a character boundary", () => {
    expect(cleanTokenText("ABCDEFGH", 8)).toBe("ABCDEFGH");
    expect(cleanTokenText("ABCDEFGHI", 8)).toBe("ABCDEFG…");
    // Never half a surrogate pair, nor half an emoji sequence or a letter without its accent.
    expect(cleanTokenText("🚀".repeat(10), 4)).toBe("🚀🚀🚀…");
    expect(cleanTokenText("👨\u200d👩\u200d👧".repeat(3), 6)).toBe("👨\u200d👩\u200d👧…");
    expect(cleanTokenText("ab\u2764\ufe0fcd", 4)).toBe("ab…");
    expect(cleanTokenText("abc\u0915\u094d\u0937x", 5)).toBe("abc…");
    // Spaces collapse before the cut, and no space is left before the ellipsis.
    expect(cleanTokenText("AB  CD", 5)).toBe("AB CD");
    expect(cleanTokenText("AB  CDE", 4)).toBe("AB…");
  });
});
