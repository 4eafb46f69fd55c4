import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hash,
  type Hex,
  keccak256,
  maxUint256,
} from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import { createSetupBatch, type SetupBatch } from "../deploy/createSetupBatch.js";
import { deployDex } from "../deploy/deployDex.js";
import { devnetTokenAbi, uniswapV2RouterAbi } from "../deploy/devnetAbis.js";
import type { UniswapArtifacts } from "../deploy/loadDevnetContracts.js";
import type { DevnetDex, DevnetMarket, DevnetToken } from "../devnetTypes.js";
import { parseUsd, usdToUnits } from "../usdToUnits.js";

/** A pool of the foreign fork. */
export interface ForeignPool {
  address: Address;
  a: DevnetToken;
  b: DevnetToken;
}

/** What a BSC-shaped chain has besides the market: a foreign fork with many pools, a farm, an aggregator. */
export interface BusyChain {
  /** A Uniswap V2 deployment in no config (the npm build): its many pools' swaps must never be indexed. */
  foreign: DevnetDex;
  foreignPools: ForeignPool[];
  /** Tokens traded only on the foreign fork (meme coins), in no token list. */
  foreignTokens: DevnetToken[];
  /** Traders of the foreign fork: funded with its tokens, its router approved. */
  foreignTraders: Address[];
  /** Another protocol whose harvests only emit logs (DevnetFarm.sol). */
  farm: Address;
  /** Executes V2 routes by calling pairs directly (DevnetAggregator.sol). */
  aggregator: Address;
}

/** Options of deployBusyChain. */
export interface DeployBusyChainOptions {
  market: DevnetMarket;
  traders: readonly Address[];
  /** The npm Uniswap build: the foreign fork is one more deployment of it. */
  uniswap: UniswapArtifacts;
  bytecode: { DevnetToken: Hex; DevnetFarm: Hex; DevnetAggregator: Hex };
  prng: Prng;
  /** Tokens only the foreign fork trades (default 24); each gets a wrapped-native pool, every other one a stablecoin pool too. */
  foreignTokens?: number;
  /** Traders of the foreign fork (default 80, at most all traders). */
  foreignTraders?: number;
  /** Every trader approves both configured routers for every listed token, so no trade needs an approval later. */
  preapprove: boolean;
}

// Meme coins of the kind that fill BSC's V2 forks; a counter makes more when asked for more.
const FOREIGN_NAMES = [
  ["Baby Doge Coin", "BABYDOGE"],
  ["Floki Inu", "FLOKI"],
  ["SafeMars", "SAFEMARS"],
  ["Pig Finance", "PIG"],
  ["Cheems Inu", "CHEEMS"],
  ["Moon Rat", "MRAT"],
  ["Elon Doge", "EDOGE"],
  ["Kishu Inu", "KISHU"],
  ["Shiba BSC", "SHIBSC"],
  ["Bonfire", "BONFIRE"],
  ["Catecoin", "CATE"],
  ["Frog Cash", "FROGC"],
  ["Tiki Token", "TIKI"],
  ["Rocket Bunny", "BUNNY2"],
  ["Pitbull", "PIT"],
  ["Hamster", "HAM"],
  ["Corgi Coin", "CORGI"],
  ["Akita BSC", "AKITA"],
  ["Sushi Cat", "SCAT"],
  ["Lucky Panda", "LPANDA"],
  ["Space Grime", "GRIME"],
  ["Mini Kong", "MKONG"],
  ["Wolf Pack", "WOLF"],
  ["Turtle Dao", "TURTLE"],
] as const;
// Listed tokens the foreign fork also pools with the wrapped native (their pools look like the
// configured DEXes' ones: only the factory tells them apart).
const LISTED_ON_FORK = ["USDT", "CAKE", "ETH", "BTCB"];
const POOL_TVL_USD = parseUsd("200000");
const TRADER_FOREIGN_USD = parseUsd("20000");
// Setup transactions per block: their gas limits stay well under anvil's 300M block gas limit.
const SETUP_GAS_PER_BLOCK = 250_000_000n;

/** Sends `txs` in as many mined blocks as their gas limits need; returns their hashes. */
async function sendInBlocks(writer: ChainWriter, txs: readonly TxRequest[]): Promise<Hash[]> {
  const hashes: Hash[] = [];
  let block: TxRequest[] = [];
  let gas = 0n;
  const flush = async () => {
    if (block.length === 0) return;
    hashes.push(...(await writer.send(block)));
    await writer.mine(writer.lastTimestamp + 1);
    block = [];
    gas = 0n;
  };
  for (const tx of txs) {
    if (gas + tx.gas > SETUP_GAS_PER_BLOCK) await flush();
    block.push(tx);
    gas += tx.gas;
  }
  await flush();
  return hashes;
}

/**
 * Deploys what a BSC-shaped history needs besides the market, in setup blocks: a foreign Uniswap
 * V2 fork (in no config) with a pool per meme token against the wrapped native, a stablecoin pool
 * for every other one and pools of four listed tokens; the farm and the aggregator; funds the
 * foreign traders with the meme tokens and gives the approvals their swaps need (and, with
 * `preapprove`, every trader's approvals of the configured routers). Checks every transaction.
 */
export async function deployBusyChain(
  writer: ChainWriter,
  options: DeployBusyChainOptions,
): Promise<BusyChain> {
  const { market } = options;
  const { deployer, wrapped } = market;
  const hashes: Hash[] = [];
  const stable = market.tokens.get("USDT") ?? [...market.tokens.values()].find((t) => !t.isWrappedNative);
  if (stable === undefined) throw new Error("devnet busy chain: the market has no token besides the native");

  const fork = await deployDex(writer, {
    name: "foreign-v2",
    deployer,
    wrapped: wrapped.address,
    artifacts: options.uniswap,
  });
  hashes.push(...fork.hashes);
  const deploys = createSetupBatch(writer, deployer);
  const foreignTraders = options.traders.slice(
    0,
    Math.min(options.traders.length, options.foreignTraders ?? 80),
  );
  const foreignTokens = deployForeignTokens(deploys, options, foreignTraders.length);
  const farm = deploys.deploy(options.bytecode.DevnetFarm, 1_000_000n);
  const aggregator = deploys.deploy(options.bytecode.DevnetAggregator, 2_000_000n);
  hashes.push(...(await writer.send(deploys.txs)));
  await writer.mine(writer.lastTimestamp + 1);

  // Pools: each meme token against the wrapped native, every other one against the stablecoin
  // too, and four listed tokens against the wrapped native.
  const specs: [DevnetToken, DevnetToken][] = [];
  for (const [i, token] of foreignTokens.entries()) {
    specs.push([token, wrapped]);
    if (i % 2 === 0) specs.push([token, stable]);
  }
  for (const symbol of LISTED_ON_FORK) {
    const token = market.tokens.get(symbol);
    if (token !== undefined && !token.isWrappedNative) specs.push([token, wrapped]);
  }
  const setup = createSetupBatch(writer, deployer);
  const { onFork, foreignPools } = queueForeignPools(setup, options, fork.dex, specs);
  const router = fork.dex.router;
  for (const trader of foreignTraders) {
    for (const token of foreignTokens) {
      setup.txs.push({
        from: deployer,
        to: token.address,
        gas: 100_000n,
        data: encodeFunctionData({
          abi: devnetTokenAbi,
          functionName: "transfer",
          args: [trader, usdToUnits(TRADER_FOREIGN_USD, token.priceE18, token.decimals)],
        }),
      });
    }
    for (const token of onFork) setup.approve(trader, token.address, router);
  }
  if (options.preapprove) {
    const sellable = [...market.tokens.values()].filter((t) => t.listed);
    for (const trader of options.traders)
      for (const dex of market.dexes)
        for (const token of sellable) setup.approve(trader, token.address, dex.router);
  }
  hashes.push(...(await sendInBlocks(writer, setup.txs)));
  await writer.assertPoolEmpty();
  await writer.assertSucceeded(hashes);
  return { foreign: fork.dex, foreignPools, foreignTokens, foreignTraders, farm, aggregator };
}

/** Queues the meme tokens only the foreign fork trades: supply for their pools and `traders` traders. */
function deployForeignTokens(
  batch: SetupBatch,
  options: DeployBusyChainOptions,
  traders: number,
): DevnetToken[] {
  const { prng } = options;
  const foreignTokens: DevnetToken[] = [];
  const count = options.foreignTokens ?? 24;
  for (let i = 0; i < count; i++) {
    const [baseName, baseSymbol] = FOREIGN_NAMES[i % FOREIGN_NAMES.length] as readonly [string, string];
    const round = Math.floor(i / FOREIGN_NAMES.length);
    const name = round === 0 ? baseName : `${baseName} ${round + 1}`;
    const symbol = round === 0 ? baseSymbol : `${baseSymbol}${round + 1}`;
    // Prices of a few thousandths of a dollar up to a dollar, 18 or 9 decimals.
    const priceE18 = parseUsd((10 ** (-3 + 3 * prng.next())).toFixed(8));
    const decimals = prng.chance(0.75) ? 18 : 9;
    const supply = usdToUnits(POOL_TVL_USD * 2n + TRADER_FOREIGN_USD * BigInt(traders), priceE18, decimals);
    const address = batch.deploy(
      encodeDeployData({
        abi: devnetTokenAbi,
        bytecode: options.bytecode.DevnetToken,
        args: [name, symbol, decimals, supply],
      }),
      3_000_000n,
    );
    foreignTokens.push({ symbol, name, decimals, address, priceE18, listed: false, isWrappedNative: false });
  }
  return foreignTokens;
}

/** Queues the deployer's approvals and the foreign pools' liquidity; returns the pools and their tokens. */
function queueForeignPools(
  batch: SetupBatch,
  options: DeployBusyChainOptions,
  fork: DevnetDex,
  specs: readonly [DevnetToken, DevnetToken][],
): { onFork: Set<DevnetToken>; foreignPools: ForeignPool[] } {
  const { deployer } = options.market;
  const router = fork.router;
  const onFork = new Set<DevnetToken>();
  for (const [a, b] of specs) {
    for (const token of [a, b]) {
      if (token.isWrappedNative || onFork.has(token)) continue;
      onFork.add(token);
      // The listed tokens' minter is the deployer too; the meme tokens' supply is its already.
      if (token.listed) batch.mint(token, deployer, POOL_TVL_USD * BigInt(specs.length));
      batch.approve(deployer, token.address, router);
    }
  }
  const foreignPools: ForeignPool[] = [];
  for (const [a, b] of specs) {
    const half = POOL_TVL_USD / 2n;
    const amountA = usdToUnits(half, a.priceE18, a.decimals);
    const amountB = usdToUnits(half, b.priceE18, b.decimals);
    batch.txs.push(
      b.isWrappedNative
        ? {
            from: deployer,
            to: router,
            gas: 5_000_000n,
            value: amountB,
            data: encodeFunctionData({
              abi: uniswapV2RouterAbi,
              functionName: "addLiquidityETH",
              args: [a.address, amountA, 0n, 0n, deployer, maxUint256],
            }),
          }
        : {
            from: deployer,
            to: router,
            gas: 5_000_000n,
            data: encodeFunctionData({
              abi: uniswapV2RouterAbi,
              functionName: "addLiquidity",
              args: [a.address, b.address, amountA, amountB, 0n, 0n, deployer, maxUint256],
            }),
          },
    );
    const [token0, token1] = a.address < b.address ? [a.address, b.address] : [b.address, a.address];
    foreignPools.push({
      address: getContractAddress({
        opcode: "CREATE2",
        from: fork.factory,
        salt: keccak256(encodePacked(["address", "address"], [token0, token1])),
        bytecodeHash: options.uniswap.pairInitCodeHash,
      }).toLowerCase() as Address,
      a,
      b,
    });
  }
  return { onFork, foreignPools };
}
