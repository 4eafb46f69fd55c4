import { type Address, encodeFunctionData, type Hex, maxUint256 } from "viem";
import type { TxRequest } from "../anvil/createChainWriter.js";
import { devnetTokenAbi, uniswapV2PairAbi, uniswapV2RouterAbi } from "../deploy/devnetAbis.js";
import type { DevnetDex, DevnetPool, DevnetToken } from "../devnetTypes.js";
import { getAmountOut } from "../market/getAmountOut.js";
import { devnetV3RouterAbi } from "../v3/v3Abis.js";
import { devnetAggregatorAbi, directPairAbi, feeOnTransferRouterAbi } from "./chainCaseAbis.js";
import type { ChainCaseRound, PlannedCasePool, PlannedCaseTx } from "./chainCaseTypes.js";

const DEADLINE = maxUint256;

interface Route {
  pairs: Address[];
  path: Address[];
  feeBps: number[];
  amountIn: bigint;
  viaSelf: boolean;
  /** Paid in the native coin: the aggregator wraps the transaction's value for this route alone. */
  nativeIn: boolean;
  /** Paid out in the native coin: the aggregator unwraps this route's output alone. */
  nativeOut: boolean;
}

const ERC20_ONLY = { nativeIn: false, nativeOut: false } as const;

/**
 * A round's trades of every case, in block order (direct pair swaps first), and the Swap events
 * they emit; trades in a pool `created` this round join it in the same block.
 */
export async function planCaseTrades(
  ctx: ChainCaseRound,
  created: readonly PlannedCasePool[],
): Promise<{ sent: PlannedCaseTx[]; swaps: number }> {
  const { cases, prng, round, wrapped, stable, dex0, directPool, usd, trader } = ctx;
  const unpricedPool = cases.pools.unpriced;
  const fee25OnlyPool = cases.pools.fee25Only;
  const offMarketPool = cases.pools.offMarket;
  const sent: PlannedCaseTx[] = [];
  let swaps = 0;
  // Direct pair swaps first: nothing else has touched their pair in this block.
  if (directPool !== undefined) {
    const sellStable = round % 2 === 0;
    const sell = sellStable ? stable : wrapped;
    const [transfer, swap] = await directSwap(
      ctx,
      trader(0),
      directPool,
      sell,
      usd(sell, 200 + 300 * prng.next()),
    );
    sent.push({ kind: undefined, tx: transfer }, { kind: "direct", tx: swap });
    swaps++;
  }
  const aggregated = aggregatorTx(ctx, trader(1));
  if (aggregated !== undefined) {
    sent.push({ kind: "aggregator", tx: aggregated.tx });
    swaps += aggregated.swaps;
  }
  const tax = taxTrade(ctx, trader(2));
  sent.push({ kind: "feeOnTransfer", tx: tax.tx });
  swaps += tax.swaps;
  // The fork trades both ways; its pool is in no configured factory.
  sent.push({
    kind: "fork",
    tx: routerSwap(
      trader(3),
      cases.fork,
      round % 2 === 0 ? [wrapped, stable] : [stable, wrapped],
      round % 2 === 0 ? usd(wrapped, 300) : usd(stable, 300),
    ),
  });
  swaps++;
  if (cases.fee25 !== undefined) {
    const volatile = cases.fee25Volatile;
    const paths: DevnetToken[][] = [
      [wrapped, stable],
      [stable, wrapped],
    ];
    if (volatile !== undefined) paths.push([volatile, wrapped, stable], [wrapped, volatile]);
    const path = paths[round % paths.length] as DevnetToken[];
    sent.push({
      kind: "fee25",
      tx: routerSwap(trader(4), cases.fee25, path, usd(path[0] as DevnetToken, 300 + 400 * prng.next())),
    });
    swaps += path.length - 1;
  }
  const unpricedReady =
    unpricedPool.createdBlock !== undefined || created.some((c) => c.pool === unpricedPool);
  if (unpricedReady) {
    const [x, y] = round % 2 === 0 ? cases.unpriced : ([cases.unpriced[1], cases.unpriced[0]] as const);
    sent.push({
      kind: "unpriced",
      tx: routerSwap(trader(5), dex0, [x, y], usd(x, 50 + 100 * prng.next())),
    });
    swaps++;
  }
  const onlyReady =
    fee25OnlyPool !== undefined &&
    (fee25OnlyPool.createdBlock !== undefined || created.some((c) => c.pool === fee25OnlyPool));
  if (onlyReady && cases.fee25 !== undefined && cases.fee25Only !== undefined) {
    const path = round % 2 === 0 ? [wrapped, cases.fee25Only] : [cases.fee25Only, wrapped];
    sent.push({
      kind: "fee25Only",
      tx: routerSwap(trader(6), cases.fee25, path, usd(path[0] as DevnetToken, 100 + 100 * prng.next())),
    });
    swaps++;
  }

  const offMarketReady =
    offMarketPool !== undefined &&
    (offMarketPool.createdBlock !== undefined || created.some((c) => c.pool === offMarketPool));
  if (offMarketReady) {
    // A trade each way through the router, whatever the pool's price: off the market at first.
    const sides = round % 2 === 0 ? [offMarketPool.a, offMarketPool.b] : [offMarketPool.b, offMarketPool.a];
    for (const [i, sell] of sides.entries()) {
      const buy = sell === offMarketPool.a ? offMarketPool.b : offMarketPool.a;
      sent.push({
        kind: "listedPool",
        tx: routerSwap(trader(i === 0 ? 1 : 5), dex0, [sell, buy], usd(sell, 150 + 250 * prng.next())),
      });
      swaps++;
    }
  }
  // Last in the block: its V2 leg reads the direct pool's reserves when it runs.
  const v3Route = v3RouteTx(ctx, trader(3));
  if (v3Route !== undefined) {
    sent.push(...v3Route);
    // Its V2 leg's Swap (the V3 pool's has another topic).
    swaps++;
  }
  return { sent, swaps };
}

/** stable -> wrapped on the direct V2 pool, then wrapped -> X on a V3 pool, in one transaction. */
function v3RouteTx(ctx: ChainCaseRound, from: Address): PlannedCaseTx[] | undefined {
  const { v3Route, directPool, market, stable, prng, usd } = ctx;
  if (v3Route === undefined || directPool === undefined) return undefined;
  const sent: PlannedCaseTx[] = [];
  if (!v3Route.approved.has(from)) {
    v3Route.approved.add(from);
    sent.push({
      kind: undefined,
      tx: {
        from,
        to: stable.address,
        gas: 100_000n,
        data: encodeFunctionData({
          abi: devnetTokenAbi,
          functionName: "approve",
          args: [v3Route.router, maxUint256],
        }),
      },
    });
  }
  const data = encodeFunctionData({
    abi: devnetV3RouterAbi,
    functionName: "swapV2ThenV3",
    args: [
      directPool.address,
      market.dexes[directPool.dex].feeBps,
      stable.address,
      usd(stable, 200 + 300 * prng.next()),
      v3Route.pool,
      from,
    ],
  });
  sent.push({ kind: "aggregatorV3", tx: { from, to: v3Route.router, gas: 1_000_000n, data } });
  return sent;
}

/** A router call with the gas every chain-case swap gets. */
function swapCall(from: Address, router: Address, data: Hex, value = 0n): TxRequest {
  return { from, to: router, gas: 600_000n, value, data };
}

async function reserves(
  ctx: ChainCaseRound,
  pair: Address,
): Promise<{ token0: Address; reserve0: bigint; reserve1: bigint }> {
  const [token0, [reserve0, reserve1]] = await Promise.all([
    ctx.writer.client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: "token0" }),
    ctx.writer.client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: "getReserves" }),
  ]);
  return { token0: token0.toLowerCase() as Address, reserve0, reserve1 };
}

/** A pair swap with no router: the trader transfers the input to the pair, then calls swap. */
async function directSwap(
  ctx: ChainCaseRound,
  from: Address,
  pool: DevnetPool,
  sell: DevnetToken,
  amountIn: bigint,
): Promise<[TxRequest, TxRequest]> {
  const r = await reserves(ctx, pool.address);
  const sellIs0 = r.token0 === sell.address;
  const [reserveIn, reserveOut] = sellIs0 ? [r.reserve0, r.reserve1] : [r.reserve1, r.reserve0];
  // Exact: nothing else touches this pair before it in the round's block.
  const out = getAmountOut(amountIn, reserveIn, reserveOut, ctx.dex0.feeBps);
  return [
    {
      from,
      to: sell.address,
      gas: 100_000n,
      data: encodeFunctionData({
        abi: devnetTokenAbi,
        functionName: "transfer",
        args: [pool.address, amountIn],
      }),
    },
    {
      from,
      to: pool.address,
      gas: 200_000n,
      data: encodeFunctionData({
        abi: directPairAbi,
        functionName: "swap",
        args: [sellIs0 ? 0n : out, sellIs0 ? out : 0n, from, "0x"],
      }),
    },
  ];
}

/** One aggregator transaction of independent routes; returns it and its Swap event count. */
function aggregatorTx(ctx: ChainCaseRound, from: Address): { tx: TxRequest; swaps: number } | undefined {
  const { market, cases, prng, round, wrapped, stable, liquid, directPool, otherWrappedPool, usd } = ctx;
  if (directPool === undefined) return undefined;
  const routes: Route[] = [];
  const fee = (p: DevnetPool) => market.dexes[p.dex].feeBps;
  const other = (p: DevnetPool, t: DevnetToken) => (p.a.address === t.address ? p.b : p.a);
  // stable -> wrapped on one pool, then the trader's own wrapped -> X on another: they share a
  // token but not the coins, so they stay two trades.
  routes.push({
    pairs: [directPool.address],
    path: [stable.address, wrapped.address],
    feeBps: [fee(directPool)],
    amountIn: usd(stable, 150 + 100 * prng.next()),
    viaSelf: false,
    ...ERC20_ONLY,
  });
  if (otherWrappedPool !== undefined) {
    routes.push({
      pairs: [otherWrappedPool.address],
      path: [wrapped.address, other(otherWrappedPool, wrapped).address],
      feeBps: [fee(otherWrappedPool)],
      amountIn: usd(wrapped, 120 + 100 * prng.next()),
      viaSelf: false,
      ...ERC20_ONLY,
    });
  }
  // The native coin in on one route: wrapped from the transaction's value for wrapped -> stable,
  // next to the route the trader's own wrapped coin pays. Amounts of the native routes follow the
  // round, not the PRNG, so the other cases' draws are unchanged.
  const nativeIn = usd(wrapped, 90 + (round % 7) * 10);
  routes.push({
    pairs: [directPool.address],
    path: [wrapped.address, stable.address],
    feeBps: [fee(directPool)],
    amountIn: nativeIn,
    viaSelf: false,
    nativeIn: true,
    nativeOut: false,
  });
  // An unrelated pool, either direction.
  const pick = liquid[(round * 7 + 3) % liquid.length] as DevnetPool;
  const sell = round % 2 === 0 ? pick.a : pick.b;
  routes.push({
    pairs: [pick.address],
    path: [sell.address, other(pick, sell).address],
    feeBps: [fee(pick)],
    amountIn: usd(sell, 100 + 200 * prng.next()),
    viaSelf: false,
    ...ERC20_ONLY,
  });
  // A chained route: stable -> wrapped -> X, its middle coins forwarded by the aggregator on odd rounds.
  if (otherWrappedPool !== undefined) {
    routes.push({
      pairs: [directPool.address, otherWrappedPool.address],
      path: [stable.address, wrapped.address, other(otherWrappedPool, wrapped).address],
      feeBps: [fee(directPool), fee(otherWrappedPool)],
      amountIn: usd(stable, 200 + 100 * prng.next()),
      viaSelf: round % 2 === 1,
      ...ERC20_ONLY,
    });
  }
  // The native coin out on one more route: stable -> wrapped, unwrapped for the trader (the first
  // route's output stays wrapped).
  routes.push({
    pairs: [directPool.address],
    path: [stable.address, wrapped.address],
    feeBps: [fee(directPool)],
    amountIn: usd(stable, 110 + (round % 5) * 10),
    viaSelf: false,
    nativeIn: false,
    nativeOut: true,
  });
  const swaps = routes.reduce((n, r) => n + r.pairs.length, 0);
  return {
    tx: {
      from,
      to: cases.aggregator,
      value: nativeIn,
      gas: 400_000n * BigInt(swaps) + 300_000n,
      data: encodeFunctionData({ abi: devnetAggregatorAbi, functionName: "execute", args: [routes] }),
    },
    swaps,
  };
}

/** A fee-on-transfer trade through the first DEX's router: buy, sell, or buy over two hops. */
function taxTrade(ctx: ChainCaseRound, from: Address): { tx: TxRequest; swaps: number } {
  const { cases, prng, round, wrapped, stable, dex0, directPool, usd } = ctx;
  const tax = cases.taxToken;
  const router = dex0.router;
  switch (round % 3) {
    case 0:
      return {
        tx: swapCall(
          from,
          router,
          encodeFunctionData({
            abi: feeOnTransferRouterAbi,
            functionName: "swapExactETHForTokensSupportingFeeOnTransferTokens",
            args: [0n, [wrapped.address, tax.address], from, DEADLINE],
          }),
          usd(wrapped, 80 + 80 * prng.next()),
        ),
        swaps: 1,
      };
    case 1:
      return {
        tx: swapCall(
          from,
          router,
          encodeFunctionData({
            abi: feeOnTransferRouterAbi,
            functionName: "swapExactTokensForETHSupportingFeeOnTransferTokens",
            args: [usd(tax, 80 + 80 * prng.next()), 0n, [tax.address, wrapped.address], from, DEADLINE],
          }),
        ),
        swaps: 1,
      };
    default:
      if (directPool === undefined) return taxTradeFallback(ctx, from);
      return {
        tx: swapCall(
          from,
          router,
          encodeFunctionData({
            abi: feeOnTransferRouterAbi,
            functionName: "swapExactTokensForTokensSupportingFeeOnTransferTokens",
            args: [
              usd(stable, 80 + 80 * prng.next()),
              0n,
              [stable.address, wrapped.address, tax.address],
              from,
              DEADLINE,
            ],
          }),
        ),
        swaps: 2,
      };
  }
}

/** The tax trade when the market has no wrapped/stable pool: a buy with native coin. */
function taxTradeFallback(ctx: ChainCaseRound, from: Address): { tx: TxRequest; swaps: number } {
  const { cases, wrapped, dex0, usd } = ctx;
  return {
    tx: swapCall(
      from,
      dex0.router,
      encodeFunctionData({
        abi: feeOnTransferRouterAbi,
        functionName: "swapExactETHForTokensSupportingFeeOnTransferTokens",
        args: [0n, [wrapped.address, cases.taxToken.address], from, DEADLINE],
      }),
      usd(wrapped, 100),
    ),
    swaps: 1,
  };
}

/** A plain router swap on `dex`: native in or out where the path starts or ends with the wrapped token. */
function routerSwap(from: Address, dex: DevnetDex, path: DevnetToken[], amountIn: bigint): TxRequest {
  const addresses = path.map((t) => t.address);
  const first = path[0] as DevnetToken;
  const last = path[path.length - 1] as DevnetToken;
  if (first.isWrappedNative) {
    return swapCall(
      from,
      dex.router,
      encodeFunctionData({
        abi: uniswapV2RouterAbi,
        functionName: "swapExactETHForTokens",
        args: [0n, addresses, from, DEADLINE],
      }),
      amountIn,
    );
  }
  return swapCall(
    from,
    dex.router,
    encodeFunctionData({
      abi: uniswapV2RouterAbi,
      functionName: last.isWrappedNative ? "swapExactTokensForETH" : "swapExactTokensForTokens",
      args: [amountIn, 0n, addresses, from, DEADLINE],
    }),
  );
}
