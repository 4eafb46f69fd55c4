// Line breaks, tabs and Unicode separators (U+2028 ends a line in JavaScript) read as spaces.
const SPACES = /[\s\p{Z}]+/gu;
// Control, format (bidi overrides, zero-width), private-use, surrogate and unassigned code
// points, the replacement character of bytes that were not UTF-8, and the characters that
// start markup or break out of quoted HTML attributes and strings.
const REMOVED = /[\p{C}\uFFFD<>"'`\\]/gu;

/**
 * A token name or symbol as chain text may be shown anywhere: NFC-normalized, without control,
 * invisible or markup characters, spaces collapsed, and at most `maxLength` code points. Longer
 * text is cut to `maxLength - 1` code points and an ellipsis ("…"), so a cut is visible.
 */
export function cleanTokenText(text: string, maxLength: number): string {
  const clean = text.normalize("NFC").replace(SPACES, " ").replace(REMOVED, "").replace(SPACES, " ").trim();
  const points = Array.from(clean);
  if (points.length <= maxLength) return clean;
  return `${points
    .slice(0, Math.max(0, maxLength - 1))
    .join("")
    .trimEnd()}…`;
}
