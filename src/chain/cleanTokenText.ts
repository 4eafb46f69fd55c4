// Tabs, line breaks (CR, LF, VT, FF, NEL) and Unicode's separators (Zs, Zl, Zp: U+2028 ends a
// line in JavaScript) read as spaces. Not \s: it holds U+FEFF, which is invisible, not a space.
const SPACE = /[\t\n\v\f\r\u0085\p{Z}]/u;
// What no reader sees, or what changes how the rest is read: controls (Cc), format characters
// (Cf: bidi overrides and isolates, zero-width space and joiners, word joiner, U+FEFF, soft
// hyphen, tags), lone surrogates (Cs), every other default-ignorable code point (variation
// selectors, Hangul fillers, combining grapheme joiner...) and U+FFFD, which stands for bytes
// that were not UTF-8.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\uFFFD]/u;
// Variation selectors (standard, ideographic, Mongolian): one right after a visible character
// picks its look (U+FE0F in "❤️").
const VARIATION_SELECTOR = /[\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;
const ZWJ = "\u200D";
const EMOJI = /\p{Extended_Pictographic}/u;
// What may stand between an emoji and a joiner: its variation selector or skin-tone modifier.
const EMOJI_SUFFIX = /[\uFE0F\u{1F3FB}-\u{1F3FF}]/u;
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Whether the hidden code point `points[i]` is kept: it is part of what the visible text shows. */
function keepsHidden(points: readonly string[], i: number, kept: readonly string[]): boolean {
  const point = points[i]!;
  const before = kept[kept.length - 1];
  if (VARIATION_SELECTOR.test(point)) {
    // One selector on a visible character; a second one, or one on nothing, only hides data.
    return before !== undefined && before !== " " && !HIDDEN.test(before);
  }
  if (point === ZWJ) {
    // Inside an emoji sequence (👨‍👩‍👧): between an emoji (and its suffix) and the next emoji.
    const base = before !== undefined && EMOJI_SUFFIX.test(before) ? kept[kept.length - 2] : before;
    const after = points[i + 1];
    return base !== undefined && EMOJI.test(base) && after !== undefined && EMOJI.test(after);
  }
  return false;
}

/**
 * A token name or symbol as the chain gives it, kept as its own text (quotes, apostrophes, angle
 * brackets and backslashes included: whoever renders it escapes it), with only what no reader
 * would see taken out. The rule, in order: NFC normalization; tabs, line breaks and Unicode
 * separators become spaces; controls (Cc), format characters (Cf), lone surrogates (Cs),
 * default-ignorable code points and U+FFFD are removed, except one variation selector right after
 * a visible character and a zero-width joiner between two emoji; runs of spaces become one; the
 * ends are trimmed. Text longer than `maxLength` code points is cut, at a grapheme boundary, to at
 * most `maxLength - 1` code points and an ellipsis ("…"), so a cut is visible.
 */
export function cleanTokenText(text: string, maxLength: number): string {
  const points = Array.from(text.normalize("NFC"), (point) => (SPACE.test(point) ? " " : point));
  const kept: string[] = [];
  points.forEach((point, i) => {
    if (!HIDDEN.test(point) || keepsHidden(points, i, kept)) kept.push(point);
  });
  const clean = kept.join("").replace(/ {2,}/g, " ").trim();
  if (Array.from(clean).length <= maxLength) return clean;
  let cut = "";
  let length = 0;
  for (const { segment } of graphemes.segment(clean)) {
    const size = Array.from(segment).length;
    if (length + size > maxLength - 1) break;
    cut += segment;
    length += size;
  }
  return `${cut.trimEnd()}…`;
}
