import { BadRequestError } from "../errors.js";

// ISO-8601 date or date-time; Date.parse decides whether it is a real date.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A time as both edges take it (GraphQL's Timestamp, /api/swaps_export's from and to): unix
 * seconds, or an ISO-8601 date or date-time; throws BadRequestError (400) for anything else.
 */
export function parseTimestamp(value: unknown): number {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string") {
    if (/^\d{1,15}$/.test(value)) return Number(value);
    const ms = ISO_DATE.test(value) ? Date.parse(value) : Number.NaN;
    if (!Number.isNaN(ms)) return Math.floor(ms / 1000);
  }
  throw new BadRequestError(
    'Timestamp must be unix seconds or an ISO-8601 date-time, e.g. 1700000000 or "2023-11-14T22:13:20Z".',
  );
}
