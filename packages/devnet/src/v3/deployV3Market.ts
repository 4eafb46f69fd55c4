import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getCreate2Address,
  type Hash,
  type Hex,
  keccak256,
  maxUint256,
} from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import { devnetTokenAbi, wrappedNativeAbi } from "../deploy/devnetAbis.js";
import type { V3Contracts } from "../deploy/loadDevnetContracts.js";
import type { DevnetMarket, DevnetToken } from "../devnetTypes.js";
import type { ReferencePrices } from "../market/createReferencePrices.js";
import { parseUsd } from "../usdToUnits.js";
import { deployV3Contracts } from "./deployV3Contracts.js";
import { planSetupPositions } from "./planV3Positions.js";
import { devnetV3RouterAbi, v3FactoryAbi, v3PoolAbi } from "./v3Abis.js";
import { sqrtPriceX96FromUsd } from "./v3Math.js";
import type { V3DexSpec } from "./v3Presets.js";
import type { DevnetV3, DevnetV3Pool, DevnetV3Position } from "./v3Types.js";

/** Options of deployV3Market. */
export interface DeployV3MarketOptions {
  spec: V3DexSpec;
  market: DevnetMarket;
  contracts: V3Contracts;
  deployer: Address;
  /** Other owners of positions (traders: they hold plenty of every token). */
  providers: readonly Address[];
  /** Accounts that trade V3 pools through the helper: approved up front for every token. */
  approvers: readonly Address[];
  reference: ReferencePrices;
  /** Unix seconds of the first setup block; the pools open at the reference prices then. */
  at: number;
}

const TICK_SPACING: Record<V3DexSpec["kind"], Record<number, number>> = {
  "uniswap-v3": { 500: 10, 3000: 60, 10000: 200 },
  "pancakeswap-v3": { 100: 1, 500: 10, 2500: 50, 10000: 200 },
};
/** keccak256 of the official pools' creation code: their CREATE2 addresses derive from it. */
const POOL_INIT_CODE_HASH: Record<V3DexSpec["kind"], Hex> = {
  "uniswap-v3": "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54",
  "pancakeswap-v3": "0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2",
};

/**
 * Deploys a chain's V3 DEX in three setup blocks: the contracts; the pools, created and opened at
 * the reference prices (the thin one at its off-market price), with the tokens and approvals
 * the positions need; then the positions. Checks every transaction and pool address.
 */
export async function deployV3Market(writer: ChainWriter, options: DeployV3MarketOptions): Promise<DevnetV3> {
  const { spec, market, deployer, reference, at } = options;
  const deployed = deployV3Contracts(writer, {
    spec,
    deployer,
    wrapped: market.wrapped.address,
    contracts: options.contracts,
  });
  const hashes: Hash[] = await writer.send(deployed.txs);
  await writer.mine(at);

  const pools = buildPools(spec, market, deployed.poolCreator);
  const txs: TxRequest[] = [];
  const positions: DevnetV3Position[] = [];
  const owed = new Map<string, bigint>();
  const owners = [deployer, ...options.providers];
  for (const pool of pools) {
    const prices = pool.offMarket ?? {
      price0E18: reference.at(pool.token0.symbol, at) ?? pool.token0.priceE18,
      price1E18: reference.at(pool.token1.symbol, at) ?? pool.token1.priceE18,
    };
    const sqrtPriceX96 = sqrtPriceX96FromUsd(
      prices.price0E18,
      pool.token0.decimals,
      prices.price1E18,
      pool.token1.decimals,
    );
    txs.push(
      {
        from: deployer,
        to: deployed.factory,
        gas: 8_000_000n,
        data: encodeFunctionData({
          abi: v3FactoryAbi,
          functionName: "createPool",
          args: [pool.token0.address, pool.token1.address, pool.fee],
        }),
      },
      {
        from: deployer,
        to: pool.address,
        gas: 300_000n,
        data: encodeFunctionData({ abi: v3PoolAbi, functionName: "initialize", args: [sqrtPriceX96] }),
      },
    );
    for (const position of planSetupPositions(pool, prices, sqrtPriceX96, owners)) {
      const { amount0, amount1, ...kept } = position;
      positions.push(kept);
      if (position.owner === deployer) {
        owed.set(pool.token0.address, (owed.get(pool.token0.address) ?? 0n) + amount0);
        owed.set(pool.token1.address, (owed.get(pool.token1.address) ?? 0n) + amount1);
      }
    }
  }
  txs.push(...fundDeployer(market, deployer, owed));
  const tokens = [...new Set(pools.flatMap((p) => [p.token0, p.token1]))];
  for (const account of new Set([...owners, ...options.approvers]))
    for (const token of tokens) txs.push(approve(account, token.address, deployed.router));
  hashes.push(...(await writer.send(txs)));
  await writer.mine(at + 1);

  hashes.push(
    ...(await writer.send(
      positions.map((p) => ({
        from: p.owner,
        to: deployed.router,
        gas: 1_000_000n,
        data: encodeFunctionData({
          abi: devnetV3RouterAbi,
          functionName: "mint",
          args: [p.pool, p.owner, p.tickLower, p.tickUpper, p.liquidity],
        }),
      })),
    )),
  );
  await writer.mine(at + 2);
  await writer.assertPoolEmpty();
  await writer.assertSucceeded(hashes);
  await assertPools(writer, deployed.factory, pools);
  const { txs: _sent, poolCreator: _creator, ...addresses } = deployed;
  return { spec, ...addresses, pools, positions };
}

/** The spec's pools whose tokens the market has, with their CREATE2 addresses. */
function buildPools(spec: V3DexSpec, market: DevnetMarket, creator: Address): DevnetV3Pool[] {
  const pools: DevnetV3Pool[] = [];
  for (const p of spec.pools) {
    const a = market.tokens.get(p.a);
    const b = market.tokens.get(p.b);
    const tickSpacing = TICK_SPACING[spec.kind][p.fee];
    if (a === undefined || b === undefined || tickSpacing === undefined) continue;
    const [token0, token1] = a.address < b.address ? [a, b] : [b, a];
    const address = getCreate2Address({
      from: creator,
      salt: keccak256(
        encodeAbiParameters(
          [{ type: "address" }, { type: "address" }, { type: "uint24" }],
          [token0.address, token1.address, p.fee],
        ),
      ),
      bytecodeHash: POOL_INIT_CODE_HASH[spec.kind],
    }).toLowerCase() as Address;
    const offMarket =
      p.priceA === undefined
        ? undefined
        : token0 === a
          ? { price0E18: parseUsd(p.priceA), price1E18: b.priceE18 }
          : { price0E18: b.priceE18, price1E18: parseUsd(p.priceA) };
    pools.push({
      address,
      fee: p.fee,
      tickSpacing,
      token0,
      token1,
      tvlUsd: p.tvlUsd,
      thin: p.thin === true,
      ...(offMarket === undefined ? {} : { offMarket }),
    });
  }
  return pools;
}

/** The deployer's tokens for its positions: minted (wrapped for the native), with a margin. */
function fundDeployer(market: DevnetMarket, deployer: Address, owed: Map<string, bigint>): TxRequest[] {
  const txs: TxRequest[] = [];
  for (const token of market.tokens.values()) {
    const amount = owed.get(token.address);
    if (amount === undefined || amount === 0n) continue;
    const padded = amount + amount / 100n + 10n ** BigInt(token.decimals);
    txs.push(mintOrWrap(token, deployer, padded));
  }
  return txs;
}

function mintOrWrap(token: DevnetToken, to: Address, amount: bigint): TxRequest {
  return token.isWrappedNative
    ? {
        from: to,
        to: token.address,
        gas: 100_000n,
        value: amount,
        data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "deposit" }),
      }
    : {
        from: to,
        to: token.address,
        gas: 120_000n,
        data: encodeFunctionData({ abi: devnetTokenAbi, functionName: "mint", args: [to, amount] }),
      };
}

function approve(from: Address, token: Address, spender: Address): TxRequest {
  return {
    from,
    to: token,
    gas: 100_000n,
    data: encodeFunctionData({ abi: devnetTokenAbi, functionName: "approve", args: [spender, maxUint256] }),
  };
}

/** Checks every offline-computed pool address against the factory. */
async function assertPools(
  writer: ChainWriter,
  factory: Address,
  pools: readonly DevnetV3Pool[],
): Promise<void> {
  const onChain = await Promise.all(
    pools.map((p) =>
      writer.client.readContract({
        address: factory,
        abi: v3FactoryAbi,
        functionName: "getPool",
        args: [p.token0.address, p.token1.address, p.fee],
      }),
    ),
  );
  pools.forEach((pool, i) => {
    if (onChain[i]?.toLowerCase() !== pool.address) {
      throw new Error(
        `devnet: V3 pool ${pool.token0.symbol}/${pool.token1.symbol} ${pool.fee} is at ${onChain[i]}, expected ${pool.address}`,
      );
    }
  });
}
