/**
 * Largest page of swaps one GraphQL request reads: bounds the work and the response of one
 * request. The REST list reads its pages through the same query, so it is bound by it too.
 */
export const MAX_SWAPS_PAGE = 1000;
