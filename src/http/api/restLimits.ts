/** Largest `limit` of /api/swaps_24h. */
export const MAX_SWAPS_LIMIT = 10_000;
