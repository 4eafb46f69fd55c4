/** The pools page the HTTP table loads: the 20 pools of most 24-hour volume with their reserves. */
export const POOLS_QUERY =
  "query { pools(network: bsc, orderBy: VOLUME_24H, first: 20) { edges { node { address liquidityUSD volumeUSD24h tradeCount24h reserve0 { amount } reserve1 { amount } } } } }";
