import { formatDecimal } from "../../domain/formatDecimal.js";
import type { NetworkName } from "../../domain/types.js";
import { assertNetworkReady } from "../assertNetworkReady.js";
import type { MarketReader } from "../types.js";
import { type AnswerFreshness, answerFreshness } from "./answerFreshness.js";

const USD_DECIMALS = 18;

/**
 * GET /api/trade_volume_usd_7d's answer: the seven UTC days ending with the day of `nowMs`, newest
 * first (seven stored day rows), and the freshness it was made at; 503 when the network does not serve.
 */
export async function readTradeVolume7d(
  reader: MarketReader,
  network: NetworkName,
  nowMs: number,
): Promise<{ value: unknown; networkStatus: AnswerFreshness }> {
  assertNetworkReady(reader, network, nowMs);
  const networkStatus = answerFreshness(reader, network, nowMs);
  const days = await reader.listDailyVolumes(network, 7, Math.floor(nowMs / 1000));
  const value = days.map((day) => ({
    date: day.date,
    address_count: String(day.traderCount),
    trade_volume_usd: formatDecimal(day.volumeUsd, USD_DECIMALS),
  }));
  return { value, networkStatus };
}
