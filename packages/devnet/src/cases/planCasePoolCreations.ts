import { encodeFunctionData, maxUint256 } from "viem";
import type { TxRequest } from "../anvil/createChainWriter.js";
import type { DevnetDex } from "../devnetTypes.js";
import type { ReferencePrices } from "../market/createReferencePrices.js";
import { parseUsd, usdToUnits } from "../usdToUnits.js";
import { feeOnTransferRouterAbi } from "./chainCaseAbis.js";
import type { ChainCaseRound, PlannedCasePool, PlannedCaseTx } from "./chainCaseTypes.js";
import type { ChainCasePool } from "./deployChainCases.js";

// Pools created during the week, as fractions of it: trades start in the creation block.
const UNPRICED_POOL_AT = 0.35;
const FEE25_ONLY_POOL_AT = 0.5;
// The listed tokens' pool: opened mid-week with modest liquidity, its first token priced 25-40%
// above or below the reference, then left alone by the arbitrageur for half a day (a tenth of a
// shorter history), as a new pool on a real chain is until the bots notice it.
const OFF_MARKET_POOL_AT = 0.45;
const OFF_MARKET_BY = [0.25, 0.4] as const;
const OFF_MARKET_SIDE_USD = parseUsd("50000");
const DEADLINE = maxUint256;

/**
 * The pools a round at `fraction` of the history creates (each once, when its time has come) and
 * their creating transactions; the round's trades in them follow in the same block.
 */
export function planCasePoolCreations(
  ctx: ChainCaseRound,
  timestamp: number,
  fraction: number,
): { sent: PlannedCaseTx[]; created: PlannedCasePool[] } {
  const { cases, dex0 } = ctx;
  const sent: PlannedCaseTx[] = [];
  const created: PlannedCasePool[] = [];
  // Pools created this round, then their first trade in the same block.
  const unpricedPool = cases.pools.unpriced;
  if (unpricedPool.createdBlock === undefined && fraction >= UNPRICED_POOL_AT) {
    sent.push({ kind: "poolCreated", tx: createPool(ctx, dex0, unpricedPool, 20_000) });
    created.push({ pool: unpricedPool, dex: dex0 });
  }
  const fee25OnlyPool = cases.pools.fee25Only;
  if (
    cases.fee25 !== undefined &&
    fee25OnlyPool !== undefined &&
    fee25OnlyPool.createdBlock === undefined &&
    fraction >= FEE25_ONLY_POOL_AT
  ) {
    sent.push({ kind: "poolCreated", tx: createPool(ctx, cases.fee25, fee25OnlyPool, 100_000) });
    created.push({ pool: fee25OnlyPool, dex: cases.fee25 });
  }
  const offMarketPool = cases.pools.offMarket;
  if (
    ctx.reference !== undefined &&
    offMarketPool !== undefined &&
    offMarketPool.createdBlock === undefined &&
    fraction >= OFF_MARKET_POOL_AT
  ) {
    const seeded = seedOffMarket(ctx, offMarketPool, ctx.reference, timestamp + 1);
    if (seeded !== undefined) {
      sent.push({ kind: "poolCreated", tx: seeded.tx });
      created.push({ pool: offMarketPool, dex: dex0, referenceUsd: seeded.referenceUsd });
    }
  }
  return { sent, created };
}

/** The router call that creates `pool` on `dex` with `sideUsd` of each token. */
function createPool(ctx: ChainCaseRound, dex: DevnetDex, pool: ChainCasePool, sideUsd: number): TxRequest {
  const { market, wrapped, usd } = ctx;
  const { a, b } = pool;
  const native = a.isWrappedNative ? b : b.isWrappedNative ? a : undefined;
  return {
    from: market.deployer,
    to: dex.router,
    gas: 6_000_000n,
    ...(native === undefined ? {} : { value: usd(wrapped, sideUsd) }),
    data:
      native === undefined
        ? encodeFunctionData({
            abi: feeOnTransferRouterAbi,
            functionName: "addLiquidity",
            args: [a.address, b.address, usd(a, sideUsd), usd(b, sideUsd), 0n, 0n, market.deployer, DEADLINE],
          })
        : encodeFunctionData({
            abi: feeOnTransferRouterAbi,
            functionName: "addLiquidityETH",
            args: [native.address, usd(native, sideUsd), 0n, 0n, market.deployer, DEADLINE],
          }),
  };
}

/** The off-market pool's creation at `at`: its first token priced 25-40% off the reference. */
function seedOffMarket(
  ctx: ChainCaseRound,
  pool: ChainCasePool,
  reference: ReferencePrices,
  at: number,
): { tx: TxRequest; referenceUsd: [bigint, bigint] } | undefined {
  const { market, prng, dex0 } = ctx;
  const priceA = reference.at(pool.a.symbol, at);
  const priceB = reference.at(pool.b.symbol, at);
  if (priceA === undefined || priceB === undefined) return undefined;
  const [least, most] = OFF_MARKET_BY;
  const off = least + (most - least) * prng.next();
  const factor = prng.chance(0.5) ? 1 + off : 1 - off;
  const poolPriceA = (priceA * BigInt(Math.round(factor * 1e6))) / 1_000_000n;
  const tx: TxRequest = {
    from: market.deployer,
    to: dex0.router,
    gas: 6_000_000n,
    data: encodeFunctionData({
      abi: feeOnTransferRouterAbi,
      functionName: "addLiquidity",
      args: [
        pool.a.address,
        pool.b.address,
        usdToUnits(OFF_MARKET_SIDE_USD, poolPriceA, pool.a.decimals),
        usdToUnits(OFF_MARKET_SIDE_USD, priceB, pool.b.decimals),
        0n,
        0n,
        market.deployer,
        DEADLINE,
      ],
    }),
  };
  return { tx, referenceUsd: [priceA, priceB] };
}
