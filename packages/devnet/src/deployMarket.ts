import type { Address, Hash } from "viem";
import type { ChainWriter } from "./anvil/createChainWriter.js";
import { deployHostileTokens, type HostileTokenAddresses } from "./cases/deployHostileTokens.js";
import { deployDex } from "./deploy/deployDex.js";
import { deployTokens } from "./deploy/deployTokens.js";
import { uniswapV2FactoryAbi } from "./deploy/devnetAbis.js";
import type { CompiledContracts } from "./deploy/loadDevnetContracts.js";
import type { DevnetDex, DevnetMarket } from "./devnetTypes.js";
import type { ReferencePrices } from "./market/createReferencePrices.js";
import { fundTraders } from "./market/fundTraders.js";
import { planLiquidity } from "./market/planLiquidity.js";
import { seedLiquidity } from "./market/seedLiquidity.js";
import type { DevnetPreset } from "./presets/devnetPresets.js";
import { parseUsd } from "./usdToUnits.js";

/** Options of deployMarket. */
export interface DeployMarketOptions {
  preset: DevnetPreset;
  bytecode: CompiledContracts;
  artifacts: { factory: `0x${string}`; router: `0x${string}`; pairInitCodeHash: Hash };
  deployer: Address;
  traders: readonly Address[];
  arbitrageur: Address;
  washTrader: Address;
  /** The pools open at these prices of `genesis`. */
  reference: ReferencePrices;
  /** Unix seconds of the chain's genesis: the setup blocks follow it. */
  genesis: number;
}

/** The market deployMarket set up, and the hostile tokens beside it. */
export interface DeployedMarket {
  market: DevnetMarket;
  /** Every DEX of the preset (the market trades on the first two). */
  dexes: DevnetDex[];
  hostile: HostileTokenAddresses;
}

// Every trader holds this much of each token and tens of times more native coin: plenty for the history.
const TRADER_USD_PER_TOKEN = parseUsd("3000000");
// 150 traders x 12 tokens x up to 120k gas is 216M, under anvil's 300M block gas limit.
const TRADERS_FUNDED_PER_BLOCK = 150;
// The arbitrageur and the wash trader hold far more than any pool: their inventory never runs out.
const MARKET_MAKER_USD_PER_TOKEN = parseUsd("1000000000");

/**
 * Deploys the preset's tokens and DEXes, seeds the pools at the reference prices of genesis,
 * deploys the hostile tokens and funds the traders, the arbitrageur and the wash trader, in setup
 * blocks right after genesis; checks every transaction and every pair address.
 */
export async function deployMarket(
  writer: ChainWriter,
  options: DeployMarketOptions,
): Promise<DeployedMarket> {
  const { preset, bytecode, deployer, traders, arbitrageur, washTrader, reference, genesis } = options;
  const plan = planLiquidity(preset, (symbol) => reference.at(symbol, genesis));
  const supplies = new Map<string, bigint>();
  for (const { spec, amountA, amountB } of plan) {
    supplies.set(spec.a, (supplies.get(spec.a) ?? 0n) + amountA);
    supplies.set(spec.b, (supplies.get(spec.b) ?? 0n) + amountB);
  }
  const setupHashes: Hash[] = [];
  const deployed = await deployTokens(writer, {
    preset,
    bytecode,
    deployer,
    initialSupply: (symbol) => supplies.get(symbol) ?? 0n,
  });
  setupHashes.push(...deployed.hashes);
  const dexes: DevnetDex[] = [];
  for (const name of preset.dexes) {
    const result = await deployDex(writer, {
      name,
      deployer,
      wrapped: deployed.wrapped.address,
      artifacts: options.artifacts,
    });
    dexes.push(result.dex);
    setupHashes.push(...result.hashes);
  }
  const dexPair = [dexes[0], dexes[1]] as [DevnetDex, DevnetDex];
  const seeded = await seedLiquidity(writer, {
    deployer,
    tokens: deployed.tokens,
    dexes: dexPair,
    plan,
    pairInitCodeHash: options.artifacts.pairInitCodeHash,
  });
  setupHashes.push(...seeded.hashes);
  await writer.mine(genesis + 60);
  // In a block of their own, so the setup block's gas stays as it was.
  const hostile = await deployHostileTokens(writer, {
    bytecode: bytecode.HostileToken,
    deployer,
    pool: {
      dex: dexPair[0],
      wrapped: deployed.wrapped.address,
      pairInitCodeHash: options.artifacts.pairInitCodeHash,
    },
  });
  setupHashes.push(...hostile.hashes);
  await writer.mine(genesis + 90);
  setupHashes.push(
    ...(await fundTraders(writer, {
      deployer,
      traders: [arbitrageur, washTrader],
      tokens: deployed.tokens.values(),
      usdPerToken: MARKET_MAKER_USD_PER_TOKEN,
    })),
  );
  // A block holds the funding of about 150 traders (one mint or deposit per token each).
  for (let from = 0, block = 0; from < traders.length; from += TRADERS_FUNDED_PER_BLOCK, block++) {
    setupHashes.push(
      ...(await fundTraders(writer, {
        deployer,
        traders: traders.slice(from, from + TRADERS_FUNDED_PER_BLOCK),
        tokens: deployed.tokens.values(),
        usdPerToken: TRADER_USD_PER_TOKEN,
      })),
    );
    await writer.mine(genesis + 120 + block);
  }
  await writer.assertPoolEmpty();
  await writer.assertSucceeded(setupHashes);
  await assertPairs(writer, seeded.pools, dexPair);
  return {
    market: {
      network: preset.network,
      chainId: preset.chainId,
      deployer,
      wrapped: deployed.wrapped,
      tokens: deployed.tokens,
      dexes: dexPair,
      pools: seeded.pools,
    },
    dexes,
    hostile: hostile.tokens,
  };
}

/** Checks every offline-computed pair address against the factories. */
async function assertPairs(
  writer: ChainWriter,
  pools: DevnetMarket["pools"],
  dexes: readonly [DevnetDex, DevnetDex],
): Promise<void> {
  const onChain = await Promise.all(
    pools.map((pool) =>
      writer.client.readContract({
        address: dexes[pool.dex].factory,
        abi: uniswapV2FactoryAbi,
        functionName: "getPair",
        args: [pool.a.address, pool.b.address],
      }),
    ),
  );
  pools.forEach((pool, i) => {
    if (onChain[i]?.toLowerCase() !== pool.address) {
      throw new Error(
        `devnet: pair ${pool.a.symbol}/${pool.b.symbol} is at ${onChain[i]}, expected ${pool.address}`,
      );
    }
  });
}
