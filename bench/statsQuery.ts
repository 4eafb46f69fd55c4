/** The market-stats query the bench loads: a token's and one of its pools' stats, every window and field. */
const WINDOW = "window from to openPrice priceChangePercentage buys sells buyers sellers volumeUSD";
const STATS = `stats { asOf blockNumber price m5 { ${WINDOW} } h1 { ${WINDOW} } h6 { ${WINDOW} } h24 { ${WINDOW} } }`;
export const STATS_QUERY = `query { token(network: bsc, symbolOrAddress: "CAKE") { symbol ${STATS} }
  pools(network: bsc, token: "CAKE", first: 1) { edges { node { address ${STATS} } } } }`;
