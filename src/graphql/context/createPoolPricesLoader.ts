import DataLoader from "dataloader";
import type { Address, NetworkName } from "../../domain/types.js";
import { getPoolPrices, type PoolPriceFigures, type PoolPrices } from "../../views/getPoolPrices.js";
import type { MarketReader } from "../../views/types.js";

/** A pool price a field asks for: the figure (Pool.lastTradePrice, Pool.priceChangePercentage24h) and the pool. */
export type PoolPriceKey = `${keyof PoolPriceFigures}:${Address}`;

/**
 * Creates a per-request loader of pools' prices on one network at `now` (unix seconds): every
 * Pool.lastTradePrice and Pool.priceChangePercentage24h a query resolves in one tick are read in
 * one grouped store read (getPoolPrices), of only the figures asked, each pool once.
 */
export function createPoolPricesLoader(
  reader: MarketReader,
  network: NetworkName,
  now: number,
): DataLoader<PoolPriceKey, PoolPrices> {
  return new DataLoader<PoolPriceKey, PoolPrices>(async (keys) => {
    const figures: PoolPriceFigures = { last: false, change24h: false };
    const pools = new Set<Address>();
    for (const key of keys) {
      const [figure, pool] = key.split(":") as [keyof PoolPriceFigures, Address];
      figures[figure] = true;
      pools.add(pool);
    }
    const prices = await getPoolPrices(reader, network, [...pools], now, figures);
    return keys.map((key) => prices.get(key.slice(key.indexOf(":") + 1) as Address)!);
  });
}
