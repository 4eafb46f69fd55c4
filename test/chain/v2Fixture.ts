import { createRequire } from "node:module";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
  type WalletClient,
} from "viem";

const require = createRequire(import.meta.url);

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

function artifact(path: string): Artifact {
  const json = require(path) as { abi: Abi; bytecode?: string; evm?: { bytecode?: { object?: string } } };
  const code = json.bytecode ?? json.evm?.bytecode?.object ?? "";
  return { abi: json.abi, bytecode: (code.startsWith("0x") ? code : `0x${code}`) as Hex };
}

/** Official Uniswap V2 build artifacts. */
export const ARTIFACTS = {
  factory: artifact("@uniswap/v2-core/build/UniswapV2Factory.json"),
  pair: artifact("@uniswap/v2-core/build/UniswapV2Pair.json"),
  router: artifact("@uniswap/v2-periphery/build/UniswapV2Router02.json"),
  weth: artifact("@uniswap/v2-periphery/build/WETH9.json"),
  erc20: artifact("@uniswap/v2-periphery/build/ERC20.json"),
};

/** anvil's first dev account (unlocked: anvil signs for it). */
export const DEPLOYER: Address = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";

/** Deployed Uniswap V2 contracts and helpers on an anvil with automine. */
export interface V2Fixture {
  publicClient: PublicClient;
  wallet: WalletClient;
  weth: Address;
  factory: Address;
  router: Address;
  deploy(art: Artifact, args?: readonly unknown[]): Promise<Address>;
  /** Sends a contract write from the deployer and waits for its receipt. */
  write(address: Address, abi: Abi, functionName: string, args?: readonly unknown[]): Promise<Hash>;
  /** Deploys an 18-decimals test token holding 10^30 units for the deployer. */
  deployToken(): Promise<Address>;
  /** Creates the pair through the router's addLiquidity and returns its address. */
  addLiquidity(factoryRouter: Address, tokenA: Address, tokenB: Address, a: bigint, b: bigint): Promise<void>;
  /** One exact-input swap through `router` (one block with automine). */
  swap(router: Address, path: Address[], amountIn: bigint): Promise<void>;
  pairOf(factory: Address, tokenA: Address, tokenB: Address): Promise<Address>;
}

/** Deploys WETH9, UniswapV2Factory and UniswapV2Router02 on an anvil at `rpcUrl`. */
export async function deployV2(rpcUrl: string): Promise<V2Fixture> {
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ transport, cacheTime: 0 });
  const wallet = createWalletClient({ account: DEPLOYER, transport, chain: undefined });

  const deploy = async (art: Artifact, args: readonly unknown[] = []) => {
    const hash = await wallet.deployContract({
      abi: art.abi,
      bytecode: art.bytecode,
      args,
      account: DEPLOYER,
      chain: null,
    } as Parameters<typeof wallet.deployContract>[0]);
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.contractAddress === null || receipt.contractAddress === undefined)
      throw new Error("deploy failed");
    return receipt.contractAddress.toLowerCase() as Address;
  };
  const write = async (address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) => {
    const hash = await wallet.writeContract({
      address,
      abi,
      functionName,
      args,
      account: DEPLOYER,
      chain: null,
      // The estimate can fall short when the block's timestamp moves on between estimate and
      // inclusion (the pair then also writes its price accumulators): use a fixed, ample limit.
      gas: 3_000_000n,
    } as Parameters<typeof wallet.writeContract>[0]);
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
    return hash;
  };

  const weth = await deploy(ARTIFACTS.weth);
  const factory = await deploy(ARTIFACTS.factory, [DEPLOYER]);
  const router = await deploy(ARTIFACTS.router, [factory, weth]);
  const approved = new Set<string>();
  const approve = async (token: Address, spender: Address) => {
    if (approved.has(`${token}:${spender}`)) return;
    await write(token, ARTIFACTS.erc20.abi, "approve", [spender, maxUint256]);
    approved.add(`${token}:${spender}`);
  };
  const deadline = () => BigInt(Math.floor(Date.now() / 1000) + 3600 * 24 * 365);

  return {
    publicClient,
    wallet,
    weth,
    factory,
    router,
    deploy,
    write,
    deployToken: () => deploy(ARTIFACTS.erc20, [10n ** 30n]),
    async addLiquidity(viaRouter, tokenA, tokenB, a, b) {
      await approve(tokenA, viaRouter);
      await approve(tokenB, viaRouter);
      await write(viaRouter, ARTIFACTS.router.abi, "addLiquidity", [
        tokenA,
        tokenB,
        a,
        b,
        0n,
        0n,
        DEPLOYER,
        deadline(),
      ]);
    },
    async swap(viaRouter, path, amountIn) {
      await approve(path[0]!, viaRouter);
      await write(viaRouter, ARTIFACTS.router.abi, "swapExactTokensForTokens", [
        amountIn,
        0n,
        path,
        DEPLOYER,
        deadline(),
      ]);
    },
    async pairOf(onFactory, tokenA, tokenB) {
      const pair = (await publicClient.readContract({
        address: onFactory,
        abi: ARTIFACTS.factory.abi,
        functionName: "getPair",
        args: [tokenA, tokenB],
      })) as Address;
      return pair.toLowerCase() as Address;
    },
  };
}
