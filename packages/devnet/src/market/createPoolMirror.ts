import type { Address } from "viem";
import type { DevnetClient } from "../anvil/createChainWriter.js";
import { uniswapV2PairAbi } from "../deploy/devnetAbis.js";
import type { DevnetToken } from "../devnetTypes.js";
import type { PlannedTrade } from "./createTradeGenerator.js";
import { getAmountOut } from "./getAmountOut.js";

/** A pool the mirror follows: what routing a router trade through it takes. */
export interface MirrorPoolSpec {
  address: Address;
  a: DevnetToken;
  b: DevnetToken;
  /** The router that trades this pool (its factory's). */
  router: Address;
  /** Fee numerator over 10,000 (30 = 0.30%). */
  feeBps: number;
}

/** A followed pool with its reserves as the mirror last computed them. */
export interface MirroredPool extends MirrorPoolSpec {
  token0: DevnetToken;
  token1: DevnetToken;
  reserve0: bigint;
  reserve1: bigint;
}

/**
 * Local copy of pool reserves, kept exact by applying each planned router trade with the pair's
 * own math, so reactions to a block's trades (arbitrage, wash trading) can be planned before
 * the block is mined.
 */
export interface PoolMirror {
  /** Starts following a pool (reserves 0 until the next sync); returns the existing one if known. */
  add(spec: MirrorPoolSpec): MirroredPool;
  get(address: Address): MirroredPool | undefined;
  /** Every followed pool. */
  all(): readonly MirroredPool[];
  /** Reads every followed pool's reserves at the chain's latest block (one JSON-RPC batch). */
  sync(): Promise<void>;
  /**
   * Applies a router trade hop by hop and returns the amount of each hop's output, the last
   * being what the trader receives; undefined (nothing applied) when a hop's pool is not followed.
   */
  apply(trade: PlannedTrade, router: Address): bigint[] | undefined;
}

/** Creates an empty mirror that reads reserves through `client`. */
export function createPoolMirror(client: DevnetClient): PoolMirror {
  const byAddress = new Map<Address, MirroredPool>();
  const byRoute = new Map<string, MirroredPool>();
  const routeKey = (router: Address, x: Address, y: Address) =>
    x < y ? `${router}:${x}:${y}` : `${router}:${y}:${x}`;

  return {
    add(spec) {
      const known = byAddress.get(spec.address);
      if (known !== undefined) return known;
      const [token0, token1] = spec.a.address < spec.b.address ? [spec.a, spec.b] : [spec.b, spec.a];
      const pool: MirroredPool = { ...spec, token0, token1, reserve0: 0n, reserve1: 0n };
      byAddress.set(spec.address, pool);
      byRoute.set(routeKey(spec.router, spec.a.address, spec.b.address), pool);
      return pool;
    },
    get: (address) => byAddress.get(address),
    all: () => [...byAddress.values()],
    async sync() {
      const pools = [...byAddress.values()];
      const reserves = await Promise.all(
        pools.map((pool) =>
          client.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: "getReserves" }),
        ),
      );
      pools.forEach((pool, i) => {
        const [reserve0, reserve1] = reserves[i] as readonly [bigint, bigint, number];
        pool.reserve0 = reserve0;
        pool.reserve1 = reserve1;
      });
    },
    apply(trade, router) {
      const hops: MirroredPool[] = [];
      for (let i = 0; i + 1 < trade.path.length; i++) {
        const x = trade.path[i] as DevnetToken;
        const y = trade.path[i + 1] as DevnetToken;
        const pool = byRoute.get(routeKey(router, x.address, y.address));
        if (pool === undefined) return undefined;
        hops.push(pool);
      }
      const outputs: bigint[] = [];
      let amount = trade.amountIn;
      hops.forEach((pool, i) => {
        const zeroForOne = (trade.path[i] as DevnetToken).address === pool.token0.address;
        const [reserveIn, reserveOut] = zeroForOne
          ? [pool.reserve0, pool.reserve1]
          : [pool.reserve1, pool.reserve0];
        const out = getAmountOut(amount, reserveIn, reserveOut, pool.feeBps);
        if (zeroForOne) {
          pool.reserve0 += amount;
          pool.reserve1 -= out;
        } else {
          pool.reserve1 += amount;
          pool.reserve0 -= out;
        }
        outputs.push(out);
        amount = out;
      });
      return outputs;
    },
  };
}
