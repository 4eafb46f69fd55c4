import { priceChangePercentage } from "../domain/priceChangePercentage.js";
import type { Address, NetworkName } from "../domain/types.js";
import { getRollingPoolDay } from "./getRollingPoolDay.js";
import type { MarketReader } from "./types.js";

/**
 * Pool.lastTradePrice before formatting: the executed price of the newest swap through the pool at
 * or below the indexed block, trades of the current second (`now`, unix seconds) included;
 * undefined when the stored window holds none.
 */
export function getPoolLastPrice(
  reader: MarketReader,
  network: NetworkName,
  pool: Address,
  now: number,
): Promise<bigint | undefined> {
  return reader.getLastPrice(network, {
    subject: { kind: "pool", pool },
    withNative: false,
    // Trades strictly before the next second: every indexed trade up to now.
    beforeTimestamp: now + 1,
    maxBlock: reader.status(network).indexedBlock ?? 0n,
  });
}

/**
 * Pool.priceChangePercentage24h over the rolling 24 hours of the pool's other 24-hour figures
 * (getRollingPoolDay: (at - 24 h, at], at the indexed block's time): the last price at or before
 * `at` (the last trade's) against the last at or before at - 24 h. Two price look-ups.
 */
export async function getPoolPriceChange24h(
  reader: MarketReader,
  network: NetworkName,
  pool: Address,
  now: number,
): Promise<string | null> {
  const day = await getRollingPoolDay(reader, network, now);
  const priceAt = (atOrBefore: number) =>
    reader.getLastPrice(network, {
      subject: { kind: "pool", pool },
      withNative: false,
      beforeTimestamp: atOrBefore + 1,
      maxBlock: day.block,
    });
  const [open, price] = await Promise.all([priceAt(day.after), priceAt(day.at)]);
  return priceChangePercentage(open, price);
}
