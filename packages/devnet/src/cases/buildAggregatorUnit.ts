import { type Address, encodeFunctionData, maxUint256 } from "viem";
import { devnetTokenAbi } from "../deploy/devnetAbis.js";
import type { DevnetToken } from "../devnetTypes.js";
import type { PlannedTrade } from "../market/createTradeGenerator.js";
import type { BusyBlockContext, BusyUnit } from "./busyBlockTypes.js";
import { devnetAggregatorAbi } from "./chainCaseAbis.js";

/** A token-to-token trade routed through the aggregator (pairs called directly). */
export function buildAggregatorUnit(
  ctx: BusyBlockContext,
  trades: readonly PlannedTrade[],
): BusyUnit | undefined {
  const { market, busy, prng, poolByHop, aggregatorApproved, summary } = ctx;
  const routes = [];
  for (const trade of trades) {
    const pairs: Address[] = [];
    for (let h = 0; h + 1 < trade.path.length; h++) {
      const a = trade.path[h] as DevnetToken;
      const b = trade.path[h + 1] as DevnetToken;
      const pool = poolByHop.get(`${trade.dex}:${a.address}:${b.address}`);
      if (pool === undefined) return undefined;
      pairs.push(pool.address);
    }
    routes.push({
      pairs,
      path: trade.path.map((t) => t.address),
      feeBps: pairs.map(() => market.dexes[trade.dex].feeBps),
      amountIn: trade.amountIn,
      viaSelf: prng.chance(0.5),
      nativeIn: false,
      nativeOut: false,
    });
  }
  const trader = (trades[0] as PlannedTrade).trader;
  const unit: BusyUnit = [];
  for (const trade of trades) {
    const tokenIn = trade.path[0] as DevnetToken;
    const key = `${trader}:${tokenIn.address}`;
    if (aggregatorApproved.has(key)) continue;
    aggregatorApproved.add(key);
    summary.approvals++;
    unit.push({
      from: trader,
      to: tokenIn.address,
      gas: 100_000n,
      data: encodeFunctionData({
        abi: devnetTokenAbi,
        functionName: "approve",
        args: [busy.aggregator, maxUint256],
      }),
    });
  }
  const hops = routes.reduce((n, r) => n + r.pairs.length, 0);
  unit.push({
    from: trader,
    to: busy.aggregator,
    gas: 400_000n * BigInt(hops) + 200_000n,
    data: encodeFunctionData({ abi: devnetAggregatorAbi, functionName: "execute", args: [routes] }),
  });
  summary.aggregatorTxs++;
  return unit;
}
