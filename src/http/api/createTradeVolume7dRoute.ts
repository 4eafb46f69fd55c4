import type { NetworkName } from "../../domain/types.js";
import { readTradeVolume7d } from "../../views/answers/readTradeVolume7d.js";
import type { MarketReader } from "../../views/types.js";
import type { BlockAnswerer } from "../createBlockAnswerer.js";
import type { RestRoute } from "./restRoute.js";

const DAY_MS = 86_400_000;

/** GET /api/trade_volume_usd_7d: the last seven UTC days' trade volume, kept per indexed block. */
export function createTradeVolume7dRoute(options: {
  reader: MarketReader;
  answer: BlockAnswerer;
}): RestRoute {
  const { reader, answer } = options;
  // Seven days ending today: a function of the indexed block and of the UTC day.
  const handler: RestRoute["handler"] = async (request, reply) => {
    const { network } = request.query as { network: NetworkName };
    const nowMs = Date.now();
    return answer.answer(request, reply, {
      network,
      key: `7d\n${network}\n${Math.floor(nowMs / DAY_MS)}`,
      nowMs,
      render: () => readTradeVolume7d(reader, network, nowMs),
    });
  };
  return {
    path: "/api/trade_volume_usd_7d",
    operationId: "listTradeVolume7d",
    ownCompression: true,
    handler,
  };
}
