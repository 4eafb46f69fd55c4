import { type Address, encodeDeployData, encodeFunctionData, type Hash, type Hex, maxUint256 } from "viem";
import type { ChainWriter } from "../anvil/createChainWriter.js";
import { createSetupBatch, type SetupBatch } from "../deploy/createSetupBatch.js";
import { deployDex } from "../deploy/deployDex.js";
import { devnetTokenAbi, uniswapV2FactoryAbi, wrappedNativeAbi } from "../deploy/devnetAbis.js";
import type { ChainCaseContracts, UniswapArtifacts } from "../deploy/loadDevnetContracts.js";
import type { DevnetDex, DevnetMarket, DevnetNetworkName, DevnetToken } from "../devnetTypes.js";
import { parseUsd, usdToUnits } from "../usdToUnits.js";
import { feeOnTransferRouterAbi, feeOnTransferTokenAbi } from "./chainCaseAbis.js";

/** A pool of the chain cases: on which DEX, its tokens, and the block its PairCreated is in. */
export interface ChainCasePool {
  address: Address;
  dex: string;
  a: DevnetToken;
  b: DevnetToken;
  /** Set once the pool exists (at setup, or when created during the week). */
  createdBlock?: bigint;
}

/** The deployed contracts, tokens and pools behind the devnet's real-chain cases. */
export interface ChainCases {
  network: DevnetNetworkName;
  /** A Uniswap V2 fork (the npm build) that is in no config: its swaps must never be indexed. */
  fork: DevnetDex;
  /** PancakeSwap's 0.25% fee (a rebuilt V2 pair and router); configured with feeBps 25. bsc only. */
  fee25: DevnetDex | undefined;
  /** Makes several independent swaps in one transaction by calling pairs directly. */
  aggregator: Address;
  /** A token that keeps 10% of every transfer (SafeMoon-style), pooled with the wrapped native on the first DEX. */
  taxToken: DevnetToken & { taxBps: number };
  /** Two tokens pooled only with each other: no route to a USD price. */
  unpriced: [DevnetToken, DevnetToken];
  /** A token listed nowhere and pooled only on the 0.25% DEX (bsc only). */
  fee25Only: DevnetToken | undefined;
  pools: {
    fork: ChainCasePool;
    tax: ChainCasePool;
    fee25: ChainCasePool[];
    /** Created during the week: the unpriced pair on the first DEX, the fee25-only token's pool. */
    unpriced: ChainCasePool;
    fee25Only: ChainCasePool | undefined;
    /** Created during the week off the market: two listed tokens' pool on the first DEX, arbitraged later. */
    offMarket: ChainCasePool | undefined;
  };
  /** Traders that send the chain cases' transactions (funded with the new tokens, approvals given). */
  traders: Address[];
  stable: DevnetToken;
  /** The volatile token with a 0.25% pool (CAKE on bsc). */
  fee25Volatile: DevnetToken | undefined;
}

/** Options of deployChainCases. */
export interface DeployChainCasesOptions {
  market: DevnetMarket;
  /** The preset's first stablecoin (USDT on bsc, USDC elsewhere). */
  stable: string;
  contracts: ChainCaseContracts;
  /** The npm Uniswap build: the unconfigured fork is one more deployment of it. */
  uniswap: UniswapArtifacts;
  /** DevnetToken.sol's creation code (plain ERC-20s). */
  devnetToken: Hex;
  traders: readonly Address[];
  /**
   * Two listed tokens with no pool on the first DEX (see pickOffMarketPair): their pool opens off
   * the market mid-week; the deployer and the traders get the approvals it needs.
   */
  offMarketPair?: readonly [DevnetToken, DevnetToken];
}

const TAX_BPS = 1_000;
const DEADLINE = maxUint256;
const TRADER_USD = parseUsd("200000");
// What the deployer mints of each off-market pool token: the pool's side and the reference's drift.
const OFF_MARKET_SEED_USD = parseUsd("200000");

/** Finds a deployed token or fails loudly: the presets and this module must agree. */
function tokenOf(market: DevnetMarket, symbol: string): DevnetToken {
  const token = market.tokens.get(symbol);
  if (token === undefined) throw new Error(`devnet chain cases: no token ${symbol} on ${market.network}`);
  return token;
}

/**
 * Deploys what the real-chain cases need and mines it in setup blocks before the history: an
 * unconfigured Uniswap fork with a pool, a 0.25%-fee DEX with pools (bsc), the aggregator, a
 * fee-on-transfer token with its pool, and the tokens whose pools are created during the week
 * (two listed tokens' pool among them when `offMarketPair` is given).
 * Funds `traders` with the new tokens and gives every approval their transactions need.
 */
export async function deployChainCases(
  writer: ChainWriter,
  options: DeployChainCasesOptions,
): Promise<ChainCases> {
  const { market, contracts } = options;
  const { deployer, wrapped } = market;
  const stable = tokenOf(market, options.stable);
  const withFee25 = market.network === "bsc";
  const hashes: Hash[] = [];

  const fork = await deployDex(writer, {
    name: "fork",
    deployer,
    wrapped: wrapped.address,
    artifacts: options.uniswap,
  });
  hashes.push(...fork.hashes);
  let fee25: DevnetDex | undefined;
  if (withFee25) {
    const deployed = await deployDex(writer, {
      name: "pancake-fork",
      deployer,
      wrapped: wrapped.address,
      artifacts: contracts.fee25,
    });
    hashes.push(...deployed.hashes);
    fee25 = { ...deployed.dex, feeBps: 25 };
  }
  const deploys = createSetupBatch(writer, deployer);
  const created = deployCaseTokens(deploys, options, withFee25);
  hashes.push(...(await writer.send(deploys.txs)));
  await writer.mine(writer.lastTimestamp + 1);

  // Liquidity at the market's prices, then the traders' tokens and approvals.
  const setup: CaseSetup = {
    ...created,
    market,
    stable,
    fork: fork.dex,
    fee25,
    fee25Volatile: withFee25 ? market.tokens.get("CAKE") : undefined,
    traders: [...options.traders],
    offMarketPair: options.offMarketPair ?? [],
  };
  const liquidity = createSetupBatch(writer, deployer);
  queueCaseLiquidity(liquidity, setup);
  hashes.push(...(await writer.send(liquidity.txs)));
  await writer.mine(writer.lastTimestamp + 1);
  await writer.assertPoolEmpty();
  await writer.assertSucceeded(hashes);
  return listCasePools(writer, setup, options.offMarketPair);
}

/** The contracts and tokens deployCaseTokens queues. */
interface CaseTokens {
  aggregator: Address;
  taxToken: DevnetToken & { taxBps: number };
  unpriced: [DevnetToken, DevnetToken];
  fee25Only: DevnetToken | undefined;
}

/** What the liquidity and the pool list are built from. */
interface CaseSetup extends CaseTokens {
  market: DevnetMarket;
  stable: DevnetToken;
  fork: DevnetDex;
  fee25: DevnetDex | undefined;
  fee25Volatile: DevnetToken | undefined;
  traders: Address[];
  offMarketPair: readonly DevnetToken[];
}

/** Queues the aggregator, the tax token and the tokens whose pools open during the week. */
function deployCaseTokens(
  batch: SetupBatch,
  options: DeployChainCasesOptions,
  withFee25: boolean,
): CaseTokens {
  const { contracts } = options;
  const deploy = (data: Hex) => batch.deploy(data, 4_000_000n);
  const aggregator = deploy(contracts.DevnetAggregator);
  const newToken = (name: string, symbol: string, decimals: number, priceUsd: string, supplyUsd: string) => {
    const priceE18 = parseUsd(priceUsd);
    const supply = usdToUnits(parseUsd(supplyUsd), priceE18, decimals);
    return { name, symbol, decimals, priceE18, listed: false, isWrappedNative: false, supply };
  };
  const taxSpec = newToken("SafeMoon", "SFM", 9, "0.0002", "50000000");
  const taxToken = {
    ...taxSpec,
    taxBps: TAX_BPS,
    address: deploy(
      encodeDeployData({
        abi: feeOnTransferTokenAbi,
        bytecode: contracts.FeeOnTransferToken,
        args: [taxSpec.name, taxSpec.symbol, taxSpec.decimals, TAX_BPS, taxSpec.supply],
      }),
    ),
  };
  const plain = (spec: ReturnType<typeof newToken>): DevnetToken => ({
    ...spec,
    address: deploy(
      encodeDeployData({
        abi: devnetTokenAbi,
        bytecode: options.devnetToken,
        args: [spec.name, spec.symbol, spec.decimals, spec.supply],
      }),
    ),
  });
  const unpriced: [DevnetToken, DevnetToken] = [
    plain(newToken("Lucky Cat", "LUCKY", 18, "0.01", "50000000")),
    plain(newToken("Frog Prince", "FROG", 6, "0.02", "50000000")),
  ];
  const fee25Only = withFee25
    ? plain(newToken("Alpaca Finance", "ALPACA", 18, "0.15", "50000000"))
    : undefined;
  return { aggregator, taxToken, unpriced, fee25Only };
}

/** Queues the cases' pools at the market's prices, then the traders' tokens and every approval. */
function queueCaseLiquidity(batch: SetupBatch, setup: CaseSetup): void {
  const { market, stable, taxToken, unpriced, fee25, fee25Only, fee25Volatile, aggregator } = setup;
  const { deployer, wrapped } = market;
  const { approve, mint } = batch;
  const addWithNative = (dex: DevnetDex, token: DevnetToken, sideUsd: bigint, mintFirst: boolean) => {
    if (mintFirst) mint(token, deployer, sideUsd);
    approve(deployer, token.address, dex.router);
    batch.txs.push({
      from: deployer,
      to: dex.router,
      gas: 6_000_000n,
      value: usdToUnits(sideUsd, wrapped.priceE18, 18),
      data: encodeFunctionData({
        abi: feeOnTransferRouterAbi,
        functionName: "addLiquidityETH",
        args: [
          token.address,
          usdToUnits(sideUsd, token.priceE18, token.decimals),
          0n,
          0n,
          deployer,
          DEADLINE,
        ],
      }),
    });
  };
  addWithNative(setup.fork, stable, parseUsd("1000000"), true);
  // The deployer is the tax token's collector: its transfers are untaxed, so the pool gets it all.
  addWithNative(market.dexes[0], taxToken, parseUsd("150000"), false);
  if (fee25 !== undefined) {
    addWithNative(fee25, stable, parseUsd("1500000"), true);
    if (fee25Volatile !== undefined) addWithNative(fee25, fee25Volatile, parseUsd("500000"), true);
  }
  const sells = [...market.tokens.values()].filter((t) => !t.isWrappedNative);
  for (const trader of setup.traders) {
    batch.txs.push({
      from: deployer,
      to: taxToken.address,
      gas: 120_000n,
      data: encodeFunctionData({
        abi: feeOnTransferTokenAbi,
        functionName: "transfer",
        args: [trader, usdToUnits(TRADER_USD, taxToken.priceE18, taxToken.decimals)],
      }),
    });
    for (const token of [...unpriced, ...(fee25Only === undefined ? [] : [fee25Only])])
      mint(token, trader, TRADER_USD);
    // Wrapped native to sell through the aggregator and pairs directly.
    batch.txs.push({
      from: trader,
      to: wrapped.address,
      gas: 100_000n,
      value: usdToUnits(TRADER_USD, wrapped.priceE18, 18),
      data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "deposit" }),
    });
    for (const token of [wrapped, ...sells]) approve(trader, token.address, aggregator);
    for (const token of [stable, taxToken, ...unpriced])
      approve(trader, token.address, market.dexes[0].router);
    approve(trader, stable.address, setup.fork.router);
    // The traders hold every listed token from their funding: only the approvals are new.
    for (const token of setup.offMarketPair) approve(trader, token.address, market.dexes[0].router);
    if (fee25 !== undefined) {
      for (const token of [stable, ...(fee25Volatile === undefined ? [] : [fee25Volatile])]) {
        approve(trader, token.address, fee25.router);
      }
      if (fee25Only !== undefined) approve(trader, fee25Only.address, fee25.router);
    }
  }
  // The pools created during the week are seeded by the deployer: its approvals come now.
  for (const token of unpriced) {
    mint(token, deployer, parseUsd("20000"));
    approve(deployer, token.address, market.dexes[0].router);
  }
  if (fee25Only !== undefined && fee25 !== undefined) {
    mint(fee25Only, deployer, parseUsd("100000"));
    approve(deployer, fee25Only.address, fee25.router);
  }
  for (const token of setup.offMarketPair) {
    mint(token, deployer, OFF_MARKET_SEED_USD);
    approve(deployer, token.address, market.dexes[0].router);
  }
}

/** The cases' contracts, tokens and pools once set up: existing pools read from their factory. */
async function listCasePools(
  writer: ChainWriter,
  setup: CaseSetup,
  offMarketPair: DeployChainCasesOptions["offMarketPair"],
): Promise<ChainCases> {
  const { market, stable, taxToken, unpriced, fee25, fee25Only, fee25Volatile } = setup;
  const { wrapped } = market;
  const setupBlock = await writer.client.getBlockNumber();
  const pairOf = async (dex: DevnetDex, a: DevnetToken, b: DevnetToken): Promise<Address> =>
    (
      await writer.client.readContract({
        address: dex.factory,
        abi: uniswapV2FactoryAbi,
        functionName: "getPair",
        args: [a.address, b.address],
      })
    ).toLowerCase() as Address;
  const pool = async (
    dex: DevnetDex,
    a: DevnetToken,
    b: DevnetToken,
    existing: boolean,
  ): Promise<ChainCasePool> => {
    // A pool created later has no pair yet: its address is known once it is created.
    const address = existing ? await pairOf(dex, a, b) : ("0x" as Address);
    return { address, dex: dex.name, a, b, ...(existing ? { createdBlock: setupBlock } : {}) };
  };
  const fee25Pools: ChainCasePool[] = [];
  if (fee25 !== undefined) {
    fee25Pools.push(await pool(fee25, wrapped, stable, true));
    if (fee25Volatile !== undefined) fee25Pools.push(await pool(fee25, fee25Volatile, wrapped, true));
  }
  return {
    network: market.network,
    fork: setup.fork,
    fee25,
    aggregator: setup.aggregator,
    taxToken,
    unpriced,
    fee25Only,
    pools: {
      fork: await pool(setup.fork, wrapped, stable, true),
      tax: await pool(market.dexes[0], taxToken, wrapped, true),
      fee25: fee25Pools,
      unpriced: await pool(market.dexes[0], unpriced[0], unpriced[1], false),
      fee25Only:
        fee25 !== undefined && fee25Only !== undefined
          ? await pool(fee25, fee25Only, wrapped, false)
          : undefined,
      offMarket:
        offMarketPair === undefined
          ? undefined
          : await pool(market.dexes[0], offMarketPair[0], offMarketPair[1], false),
    },
    traders: setup.traders,
    stable,
    fee25Volatile,
  };
}
