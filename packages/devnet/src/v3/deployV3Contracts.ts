import { type Address, encodeDeployData, encodeFunctionData, type Hex, parseAbi } from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import { createSetupBatch } from "../deploy/createSetupBatch.js";
import type { V3Contracts } from "../deploy/loadDevnetContracts.js";
import { pancakeV3PoolDeployerAbi, uniswapV3PeripheryConstructorAbi } from "./v3Abis.js";
import type { V3DexSpec } from "./v3Presets.js";

/** The V3 contracts of one chain and the transactions that deploy them (not sent yet). */
export interface V3ContractAddresses {
  factory: Address;
  deployer: Address | undefined;
  router: Address;
  quoter: Address;
  swapRouter: Address | undefined;
  /** Who a pool's CREATE2 address derives from: the factory (Uniswap) or the deployer (PancakeSwap). */
  poolCreator: Address;
  txs: TxRequest[];
}

const factoryConstructorAbi = parseAbi(["constructor()"]);
const pancakeFactoryConstructorAbi = parseAbi(["constructor(address _poolDeployer)"]);
/** DevnetV3Router's and DevnetV3Quoter's constructor: the factory whose pools they serve. */
const withFactoryConstructorAbi = parseAbi(["constructor(address factory_)"]);

/**
 * Queues the deployment of a chain's V3 DEX by `deployer`: PancakeSwap V3 (our pool deployer
 * holding the official pool's creation code, the official factory, the deployer told its factory)
 * or Uniswap V3 (the official factory, SwapRouter and QuoterV2); then our router/position helper,
 * and on PancakeSwap our QuoterV2-shaped quoter.
 */
export function deployV3Contracts(
  writer: ChainWriter,
  options: { spec: V3DexSpec; deployer: Address; wrapped: Address; contracts: V3Contracts },
): V3ContractAddresses {
  const { spec, contracts, wrapped } = options;
  const batch = createSetupBatch(writer, options.deployer);
  const helper = (factory: Address) =>
    batch.deploy(
      encodeDeployData({ abi: withFactoryConstructorAbi, bytecode: contracts.router, args: [factory] }),
      4_000_000n,
    );
  if (spec.kind === "pancakeswap-v3") {
    const deployer = batch.deploy(
      encodeDeployData({
        abi: pancakeV3PoolDeployerAbi,
        bytecode: contracts.pancakePoolDeployer,
        args: [contracts.pancakePool],
      }),
      15_000_000n,
    );
    const factory = batch.deploy(
      encodeDeployData({
        abi: pancakeFactoryConstructorAbi,
        bytecode: contracts.pancakeFactory,
        args: [deployer],
      }),
      10_000_000n,
    );
    batch.txs.push({
      from: options.deployer,
      to: deployer,
      gas: 100_000n,
      data: encodeFunctionData({
        abi: pancakeV3PoolDeployerAbi,
        functionName: "setFactoryAddress",
        args: [factory],
      }),
    });
    const router = helper(factory);
    const quoter = batch.deploy(deployWithFactory(contracts.quoter, factory), 4_000_000n);
    return {
      factory,
      deployer,
      router,
      quoter,
      swapRouter: undefined,
      poolCreator: deployer,
      txs: batch.txs,
    };
  }
  const factory = batch.deploy(
    encodeDeployData({ abi: factoryConstructorAbi, bytecode: contracts.uniswapFactory }),
    15_000_000n,
  );
  const periphery = (bytecode: Hex) =>
    encodeDeployData({ abi: uniswapV3PeripheryConstructorAbi, bytecode, args: [factory, wrapped] });
  const swapRouter = batch.deploy(periphery(contracts.swapRouter), 6_000_000n);
  const quoter = batch.deploy(periphery(contracts.quoterV2), 5_000_000n);
  const router = helper(factory);
  return { factory, deployer: undefined, router, quoter, swapRouter, poolCreator: factory, txs: batch.txs };
}

function deployWithFactory(bytecode: Hex, factory: Address): Hex {
  return encodeDeployData({ abi: withFactoryConstructorAbi, bytecode, args: [factory] });
}
