import { type Address, encodeFunctionData, type Hash, type Hex, maxUint256 } from "viem";
import { getAmountOut } from "../pricing/getAmountOut.js";
import { devnetAggregatorAbi, directPairAbi, feeOnTransferRouterAbi } from "./chainCaseAbis.js";
import type { Arbitrageur } from "./createArbitrageur.js";
import type { ChainWriter, TxRequest } from "./createChainWriter.js";
import type { Prng } from "./createPrng.js";
import type { ReferencePrices } from "./createReferencePrices.js";
import type { ChainCasePool, ChainCases } from "./deployChainCases.js";
import { devnetTokenAbi, uniswapV2FactoryAbi, uniswapV2PairAbi, uniswapV2RouterAbi } from "./devnetAbis.js";
import type { DevnetDex, DevnetMarket, DevnetPool, DevnetToken } from "./devnetTypes.js";
import { parseUsd, usdToUnits } from "./usdToUnits.js";

/** The kinds of transaction the chain cases send. */
export type ChainCaseKind =
  | "fork"
  | "direct"
  | "aggregator"
  | "feeOnTransfer"
  | "fee25"
  | "unpriced"
  | "fee25Only"
  | "poolCreated"
  /** Trades in the pool of two listed tokens opened off the market. */
  | "listedPool";

/** A pool created during the week (addresses lowercase). */
export interface CreatedPoolInfo {
  address: Address;
  dex: string;
  symbols: [string, string];
  /** The block of its PairCreated. */
  block: bigint;
  /**
   * Set on the pool of two listed tokens opened off the market: unix seconds from which the
   * arbitrageur trades it. Its trades before then are at its own price, far off the market.
   */
  offMarketUntil?: number;
  /** Timestamp of the first history block at or after offMarketUntil: its arbitrage brought the pool back. */
  arbitragedAt?: number;
  /** Both tokens' reference USD prices (10^18-scaled, `symbols` order) at its creation and at arbitragedAt. */
  referenceUsd?: { created: [bigint, bigint]; arbitraged?: [bigint, bigint] };
}

/** What the chain cases put on the chain, as plain data (addresses lowercase). */
export interface ChainCasesInfo {
  /** The unconfigured Uniswap fork: its pools' swaps must be absent from the index. */
  fork: { factory: Address; router: Address; pools: Address[] };
  /** The 0.25% DEX (bsc), configured with feeBps 25, and its pools. */
  fee25: (DevnetDex & { pools: Address[] }) | undefined;
  aggregator: Address;
  taxToken: { address: Address; symbol: string; decimals: number; taxBps: number; pool: Address };
  /** Tokens with no route to a USD price, and their pool. */
  unpriced: { tokens: [Address, Address]; pool: Address };
  /** A token pooled only on the 0.25% DEX (bsc). */
  fee25Only: Address | undefined;
  /** Pools created during the week, with the block of their PairCreated. */
  createdPools: CreatedPoolInfo[];
  traders: Address[];
  /** Successful transactions by kind (approvals and funding left out). */
  txs: Record<ChainCaseKind, Hash[]>;
  /** Swap events the transactions emitted, fork pools included. */
  swapLogs: number;
  /** Extra blocks mined between the history's blocks. */
  blocks: number;
}

/** Sends the chain cases' transactions in blocks of their own between the history's blocks. */
export interface ChainCaseSimulation {
  /**
   * Called after each history block mined at `timestamp`: when a round is due, mines one more
   * block of chain-case transactions right after it. Returns the Swap events that block emitted.
   */
  interleave(timestamp: number): Promise<number>;
  /** Checks every chain-case transaction succeeded and returns what was done. */
  finish(): Promise<ChainCasesInfo>;
  /**
   * Live trading: after every `every`-th live block, mines one round of chain-case transactions
   * (their hashes join the info's `txs`). Failures surface like live trading's own.
   */
  live(timestamp: number): Promise<void>;
}

/** Options of createChainCaseSimulation. */
export interface ChainCaseSimulationOptions {
  cases: ChainCases;
  market: DevnetMarket;
  prng: Prng;
  /** The history's first and last timestamps: rounds are spread evenly between them. */
  fromTimestamp: number;
  toTimestamp: number;
  /** Rounds over the history (default 40). */
  rounds?: number;
  /** During live trading, one round every this many live blocks (default 5). */
  liveEvery?: number;
  /**
   * Opens the cases' off-market pool (ChainCases.pools.offMarket) mid-week, its price 25-40% off
   * `reference`, and has `arbitrageur` start on it some hours later. Without it the pool is never created.
   */
  offMarket?: { arbitrageur: Arbitrageur; reference: ReferencePrices };
}

const KINDS: readonly ChainCaseKind[] = [
  "fork",
  "direct",
  "aggregator",
  "feeOnTransfer",
  "fee25",
  "unpriced",
  "fee25Only",
  "poolCreated",
  "listedPool",
];
// Pools created during the week, as fractions of it: trades start in the creation block.
const UNPRICED_POOL_AT = 0.35;
const FEE25_ONLY_POOL_AT = 0.5;
// The listed tokens' pool: opened mid-week with modest liquidity, its first token priced 25-40%
// above or below the reference, then left alone by the arbitrageur for half a day (a tenth of a
// shorter history), as a new pool on a real chain is until the bots notice it.
const OFF_MARKET_POOL_AT = 0.45;
const OFF_MARKET_BY = [0.25, 0.4] as const;
const OFF_MARKET_SIDE_USD = parseUsd("50000");
const OFF_MARKET_SECONDS = 12 * 3600;
// No round in the history's last stretch: its last block must stay at exactly its end time.
const LAST_ROUND_BEFORE = 0.97;
const DEADLINE = maxUint256;

interface Route {
  pairs: Address[];
  path: Address[];
  feeBps: number[];
  amountIn: bigint;
  viaSelf: boolean;
}

/** Creates the round scheduler of the chain cases of one chain. */
export function createChainCaseSimulation(
  writer: ChainWriter,
  options: ChainCaseSimulationOptions,
): ChainCaseSimulation {
  const { cases, market, prng } = options;
  const { wrapped } = market;
  const { stable } = cases;
  const rounds = options.rounds ?? 40;
  const span = Math.max(1, options.toTimestamp - options.fromTimestamp);
  const txs = Object.fromEntries(KINDS.map((kind) => [kind, [] as Hash[]])) as Record<ChainCaseKind, Hash[]>;
  const createdPools: CreatedPoolInfo[] = [];
  // The off-market pool's entry once created: its arbitrage start is filled in when it comes.
  let offMarketInfo: CreatedPoolInfo | undefined;
  const offMarketSeconds = Math.min(OFF_MARKET_SECONDS, Math.floor(span / 10));
  let round = 0;
  let swapLogs = 0;
  let blocks = 0;
  const extra: Hash[] = [];

  const dex0 = market.dexes[0];
  // Deep, listed, fairly priced pools: what aggregators route through.
  const liquid = market.pools.filter((p) => !p.thin && !p.wash && !p.unlisted);
  const directPool = liquid.find((p) => p.dex === 0 && has(p, wrapped) && has(p, stable));
  const otherWrappedPool = liquid.find((p) => p.dex === 0 && has(p, wrapped) && !has(p, stable));

  const usd = (token: DevnetToken, dollars: number): bigint =>
    usdToUnits(parseUsd(String(Math.round(dollars))), token.priceE18, token.decimals);
  const trader = (offset: number): Address =>
    cases.traders[(round + offset) % cases.traders.length] as Address;
  const swapCall = (from: Address, router: Address, data: Hex, value = 0n): TxRequest => ({
    from,
    to: router,
    gas: 600_000n,
    value,
    data,
  });

  async function reserves(pair: Address): Promise<{ token0: Address; reserve0: bigint; reserve1: bigint }> {
    const [token0, [reserve0, reserve1]] = await Promise.all([
      writer.client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: "token0" }),
      writer.client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: "getReserves" }),
    ]);
    return { token0: token0.toLowerCase() as Address, reserve0, reserve1 };
  }

  /** A pair swap with no router: the trader transfers the input to the pair, then calls swap. */
  async function directSwap(
    from: Address,
    pool: DevnetPool,
    sell: DevnetToken,
    amountIn: bigint,
  ): Promise<[TxRequest, TxRequest]> {
    const r = await reserves(pool.address);
    const sellIs0 = r.token0 === sell.address;
    const [reserveIn, reserveOut] = sellIs0 ? [r.reserve0, r.reserve1] : [r.reserve1, r.reserve0];
    // Exact: nothing else touches this pair before it in the round's block.
    const out = getAmountOut(amountIn, reserveIn, reserveOut, dex0.feeBps);
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
  function aggregatorTx(from: Address): { tx: TxRequest; swaps: number } | undefined {
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
    });
    if (otherWrappedPool !== undefined) {
      routes.push({
        pairs: [otherWrappedPool.address],
        path: [wrapped.address, other(otherWrappedPool, wrapped).address],
        feeBps: [fee(otherWrappedPool)],
        amountIn: usd(wrapped, 120 + 100 * prng.next()),
        viaSelf: false,
      });
    }
    // An unrelated pool, either direction.
    const pick = liquid[(round * 7 + 3) % liquid.length] as DevnetPool;
    const sell = round % 2 === 0 ? pick.a : pick.b;
    routes.push({
      pairs: [pick.address],
      path: [sell.address, other(pick, sell).address],
      feeBps: [fee(pick)],
      amountIn: usd(sell, 100 + 200 * prng.next()),
      viaSelf: false,
    });
    // A chained route: stable -> wrapped -> X, its middle coins forwarded by the aggregator on odd rounds.
    if (otherWrappedPool !== undefined) {
      routes.push({
        pairs: [directPool.address, otherWrappedPool.address],
        path: [stable.address, wrapped.address, other(otherWrappedPool, wrapped).address],
        feeBps: [fee(directPool), fee(otherWrappedPool)],
        amountIn: usd(stable, 200 + 100 * prng.next()),
        viaSelf: round % 2 === 1,
      });
    }
    const swaps = routes.reduce((n, r) => n + r.pairs.length, 0);
    return {
      tx: {
        from,
        to: cases.aggregator,
        gas: 400_000n * BigInt(swaps) + 200_000n,
        data: encodeFunctionData({ abi: devnetAggregatorAbi, functionName: "execute", args: [routes] }),
      },
      swaps,
    };
  }

  /** A fee-on-transfer trade through the first DEX's router: buy, sell, or buy over two hops. */
  function taxTrade(from: Address): { tx: TxRequest; swaps: number } {
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
        if (directPool === undefined) return taxTradeFallback(from);
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

  function taxTradeFallback(from: Address): { tx: TxRequest; swaps: number } {
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

  function createPool(dex: DevnetDex, pool: ChainCasePool, sideUsd: number): TxRequest {
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
              args: [
                a.address,
                b.address,
                usd(a, sideUsd),
                usd(b, sideUsd),
                0n,
                0n,
                market.deployer,
                DEADLINE,
              ],
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
    pool: ChainCasePool,
    reference: ReferencePrices,
    at: number,
  ): { tx: TxRequest; referenceUsd: [bigint, bigint] } | undefined {
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

  async function runRound(timestamp: number, fraction: number): Promise<number> {
    // kind undefined: a transaction that is no trade of its own (a direct swap's transfer).
    const sent: { kind: ChainCaseKind | undefined; tx: TxRequest }[] = [];
    const created: { pool: ChainCasePool; dex: DevnetDex; referenceUsd?: [bigint, bigint] }[] = [];
    let swaps = 0;
    // Pools created this round, then their first trade in the same block.
    const unpricedPool = cases.pools.unpriced;
    if (unpricedPool.createdBlock === undefined && fraction >= UNPRICED_POOL_AT) {
      sent.push({ kind: "poolCreated", tx: createPool(dex0, unpricedPool, 20_000) });
      created.push({ pool: unpricedPool, dex: dex0 });
    }
    const fee25OnlyPool = cases.pools.fee25Only;
    if (
      cases.fee25 !== undefined &&
      fee25OnlyPool !== undefined &&
      fee25OnlyPool.createdBlock === undefined &&
      fraction >= FEE25_ONLY_POOL_AT
    ) {
      sent.push({ kind: "poolCreated", tx: createPool(cases.fee25, fee25OnlyPool, 100_000) });
      created.push({ pool: fee25OnlyPool, dex: cases.fee25 });
    }
    const offMarketPool = cases.pools.offMarket;
    if (
      options.offMarket !== undefined &&
      offMarketPool !== undefined &&
      offMarketPool.createdBlock === undefined &&
      fraction >= OFF_MARKET_POOL_AT
    ) {
      const seeded = seedOffMarket(offMarketPool, options.offMarket.reference, timestamp + 1);
      if (seeded !== undefined) {
        sent.push({ kind: "poolCreated", tx: seeded.tx });
        created.push({ pool: offMarketPool, dex: dex0, referenceUsd: seeded.referenceUsd });
      }
    }
    // Direct pair swaps first: nothing else has touched their pair in this block.
    if (directPool !== undefined) {
      const sellStable = round % 2 === 0;
      const sell = sellStable ? stable : wrapped;
      const [transfer, swap] = await directSwap(
        trader(0),
        directPool,
        sell,
        usd(sell, 200 + 300 * prng.next()),
      );
      sent.push({ kind: undefined, tx: transfer }, { kind: "direct", tx: swap });
      swaps++;
    }
    const aggregated = aggregatorTx(trader(1));
    if (aggregated !== undefined) {
      sent.push({ kind: "aggregator", tx: aggregated.tx });
      swaps += aggregated.swaps;
    }
    const tax = taxTrade(trader(2));
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

    const hashes = await writer.send(sent.map((s) => s.tx));
    // Right after the block it follows: history blocks are minutes apart, live ones seconds.
    const mined = await writer.mine(timestamp + 1);
    blocks++;
    const block = await writer.client.getBlockNumber();
    for (const [i, s] of sent.entries()) if (s.kind !== undefined) txs[s.kind].push(hashes[i] as Hash);
    // The transfers before direct swaps must have succeeded too.
    extra.push(...hashes.filter((_, i) => sent[i]?.kind === undefined));
    for (const { pool, dex, referenceUsd } of created) {
      pool.address = (
        await writer.client.readContract({
          address: dex.factory,
          abi: uniswapV2FactoryAbi,
          functionName: "getPair",
          args: [pool.a.address, pool.b.address],
        })
      ).toLowerCase() as Address;
      pool.createdBlock = block;
      const info: CreatedPoolInfo = {
        address: pool.address,
        dex: dex.name,
        symbols: [pool.a.symbol, pool.b.symbol],
        block,
      };
      if (referenceUsd !== undefined && options.offMarket !== undefined) {
        info.offMarketUntil = mined + offMarketSeconds;
        info.referenceUsd = { created: referenceUsd };
        const spec = { address: pool.address, a: pool.a, b: pool.b, router: dex.router, feeBps: dex.feeBps };
        if (!options.offMarket.arbitrageur.watch(spec, info.offMarketUntil))
          throw new Error(`devnet chain cases: the arbitrageur refused ${pool.a.symbol}/${pool.b.symbol}`);
        offMarketInfo = info;
      }
      createdPools.push(info);
    }
    return swaps;
  }

  /** Records the first history block (mined at `timestamp`) whose arbitrage covers the off-market pool. */
  function noteArbitrageStart(timestamp: number): void {
    const info = offMarketInfo;
    const reference = options.offMarket?.reference;
    if (info?.referenceUsd === undefined || info.offMarketUntil === undefined || reference === undefined)
      return;
    if (info.arbitragedAt !== undefined || timestamp < info.offMarketUntil) return;
    info.arbitragedAt = timestamp;
    info.referenceUsd.arbitraged = [
      reference.at(info.symbols[0], timestamp) ?? 0n,
      reference.at(info.symbols[1], timestamp) ?? 0n,
    ];
  }

  let nextRound = 0.5 / rounds;
  let liveBlocks = 0;
  return {
    async live(timestamp) {
      if (++liveBlocks % (options.liveEvery ?? 5) !== 0) return;
      swapLogs += await runRound(timestamp, 1);
      round++;
    },
    async interleave(timestamp) {
      noteArbitrageStart(timestamp);
      const fraction = (timestamp - options.fromTimestamp) / span;
      if (fraction < nextRound || fraction >= LAST_ROUND_BEFORE) return 0;
      while (nextRound <= fraction) nextRound += 1 / rounds;
      const swaps = await runRound(timestamp, fraction);
      round++;
      swapLogs += swaps;
      return swaps;
    },
    async finish() {
      await writer.assertPoolEmpty();
      await writer.assertSucceeded([...extra, ...KINDS.flatMap((kind) => txs[kind])]);
      return {
        fork: { factory: cases.fork.factory, router: cases.fork.router, pools: [cases.pools.fork.address] },
        fee25:
          cases.fee25 === undefined
            ? undefined
            : {
                ...cases.fee25,
                pools: [
                  ...cases.pools.fee25.map((p) => p.address),
                  ...(cases.pools.fee25Only?.createdBlock === undefined
                    ? []
                    : [cases.pools.fee25Only.address]),
                ],
              },
        aggregator: cases.aggregator,
        taxToken: {
          address: cases.taxToken.address,
          symbol: cases.taxToken.symbol,
          decimals: cases.taxToken.decimals,
          taxBps: cases.taxToken.taxBps,
          pool: cases.pools.tax.address,
        },
        unpriced: {
          tokens: [cases.unpriced[0].address, cases.unpriced[1].address],
          pool: cases.pools.unpriced.address,
        },
        fee25Only: cases.fee25Only?.address,
        createdPools,
        traders: cases.traders,
        txs,
        swapLogs,
        blocks,
      };
    },
  };
}

function has(pool: DevnetPool, token: DevnetToken): boolean {
  return pool.a.address === token.address || pool.b.address === token.address;
}
