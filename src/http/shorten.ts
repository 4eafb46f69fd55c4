/** `text` cut to `max` characters (with "...") for an error message that quotes the request. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
