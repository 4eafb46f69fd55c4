import { createRequire } from "node:module";
import { type Anvil, startAnvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import { devnetTokenAbi, wrappedNativeAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import { readArtifact } from "@swapgraph/devnet/deploy/readArtifact.js";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
  parseAbi,
} from "viem";
import { getAmount0Delta, getAmount1Delta } from "../../../src/pricing/v3/getAmountDelta.js";
import { getSqrtRatioAtTick } from "../../../src/pricing/v3/getSqrtRatioAtTick.js";

const require = createRequire(import.meta.url);

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

const official = (path: string): Artifact => require(path) as Artifact;

/** The official Uniswap V3 builds from node_modules, as deployed on mainnet. */
export const V3_ARTIFACTS = {
  factory: official("@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json"),
  pool: official("@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json"),
  positionManager: official(
    "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json",
  ),
  router: official("@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json"),
  quoter: official("@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json"),
};

/** The pool events the state is rebuilt from. */
export const poolEventsAbi = parseAbi([
  "event Initialize(uint160 sqrtPriceX96, int24 tick)",
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
]);

/** PancakeSwap V3's pool events: the same, but its Swap also names the protocol's fees. */
export const pancakePoolEventsAbi = parseAbi([
  "event Initialize(uint160 sqrtPriceX96, int24 tick)",
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1)",
]);

/** anvil's first dev account (unlocked). */
export const DEPLOYER: Address = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
export const DEADLINE = 1n << 40n;

/** A token of the fixture. */
export interface FixtureToken {
  symbol: string;
  decimals: number;
  address: Address;
}

/** Uniswap V3 on a fresh anvil (automine): factory, position manager, router, QuoterV2. */
export interface V3Fixture {
  anvil: Anvil;
  client: PublicClient;
  factory: Address;
  positionManager: Address;
  router: Address;
  quoter: Address;
  weth: Address;
  /** Sends a transaction from the deployer and throws unless it succeeded; returns its hash. */
  send(to: Address | undefined, data: Hex, value?: bigint): Promise<Hash>;
  deployToken(symbol: string, decimals: number): Promise<FixtureToken>;
  /** Creates and initializes a pool at `sqrtPriceX96` (token0 < token1 by address). */
  createPool(token0: Address, token1: Address, fee: number, sqrtPriceX96: bigint): Promise<Address>;
  /**
   * Mints at least `liquidity` over [tickLower, tickUpper) through the position manager, paying
   * what the pool's current price asks; returns the position's token id.
   */
  mint(pool: V3PoolRef, tickLower: number, tickUpper: number, liquidity: bigint): Promise<bigint>;
  decreaseLiquidity(tokenId: bigint, liquidity: bigint): Promise<void>;
  /** The liquidity a position holds (positions(tokenId)). */
  positionLiquidity(tokenId: bigint): Promise<bigint>;
  stop(): Promise<void>;
}

/** Where a fixture pool is and what it trades. */
export interface V3PoolRef {
  address: Address;
  token0: Address;
  token1: Address;
  fee: number;
}

const slot0Abi = parseAbi(["function slot0() view returns (uint160 sqrtPriceX96, int24 tick)"]);

/** Starts anvil and deploys WETH, the official V3 factory, position manager, router and QuoterV2. */
export async function startV3Fixture(): Promise<V3Fixture> {
  const anvil = await startAnvil({ chainId: 31337, mining: "auto" });
  const transport = http(anvil.rpcUrl, {
    batch: { batchSize: 200, wait: 0 },
    retryCount: 0,
    timeout: 60_000,
  });
  const client = createPublicClient({ transport, cacheTime: 0 });
  const wallet = createWalletClient({ account: DEPLOYER, transport: http(anvil.rpcUrl, { retryCount: 0 }) });

  const send = async (to: Address | undefined, data: Hex, value?: bigint): Promise<Hash> => {
    const hash = await wallet.sendTransaction({
      ...(value === undefined ? {} : { value }),
      chain: null,
      ...(to === undefined ? {} : { to }),
      data,
      gas: 15_000_000n,
    });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return hash;
  };
  const deploy = async (artifact: Artifact, args: readonly unknown[]): Promise<Address> => {
    const hash = await send(
      undefined,
      encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args }),
    );
    const receipt = await client.getTransactionReceipt({ hash });
    return (receipt.contractAddress as Address).toLowerCase() as Address;
  };

  const wrapped = readArtifact("WrappedNative");
  const weth = await deploy({ abi: wrappedNativeAbi, bytecode: wrapped.bytecode }, ["Wrapped Ether", "WETH"]);
  const factory = await deploy(V3_ARTIFACTS.factory, []);
  const positionManager = await deploy(V3_ARTIFACTS.positionManager, [factory, weth, `0x${"0".repeat(40)}`]);
  const router = await deploy(V3_ARTIFACTS.router, [factory, weth]);
  const quoter = await deploy(V3_ARTIFACTS.quoter, [factory, weth]);
  const token = readArtifact("DevnetToken");
  const npm = V3_ARTIFACTS.positionManager.abi;

  const slot0 = async (pool: Address) =>
    client.readContract({ address: pool, abi: slot0Abi, functionName: "slot0" }) as Promise<
      readonly [bigint, number]
    >;

  return {
    anvil,
    client,
    factory,
    positionManager,
    router,
    quoter,
    weth,
    send,
    async deployToken(symbol, decimals) {
      const address = await deploy({ abi: devnetTokenAbi, bytecode: token.bytecode }, [
        symbol,
        symbol,
        decimals,
        10n ** 45n,
      ]);
      for (const spender of [positionManager, router]) {
        await send(
          address,
          encodeFunctionData({ abi: devnetTokenAbi, functionName: "approve", args: [spender, maxUint256] }),
        );
      }
      return { symbol, decimals, address };
    },
    async createPool(token0, token1, fee, sqrtPriceX96) {
      await send(
        positionManager,
        encodeFunctionData({
          abi: npm,
          functionName: "createAndInitializePoolIfNecessary",
          args: [token0, token1, fee, sqrtPriceX96],
        }),
      );
      const pool = (await client.readContract({
        address: factory,
        abi: V3_ARTIFACTS.factory.abi,
        functionName: "getPool",
        args: [token0, token1, fee],
      })) as Address;
      return pool.toLowerCase() as Address;
    },
    async mint(pool, tickLower, tickUpper, liquidity) {
      const [sqrtPriceX96] = await slot0(pool.address);
      const a = getSqrtRatioAtTick(tickLower);
      const b = getSqrtRatioAtTick(tickUpper);
      const below = sqrtPriceX96 <= a;
      const above = sqrtPriceX96 >= b;
      // What the pool asks for `liquidity`, plus a little: the manager mints what the amounts allow.
      const amount0 = above ? 0n : getAmount0Delta(below ? a : sqrtPriceX96, b, liquidity, true) + 2n;
      const amount1 = below ? 0n : getAmount1Delta(a, above ? b : sqrtPriceX96, liquidity, true) + 2n;
      const before = (await client.readContract({
        address: positionManager,
        abi: npm,
        functionName: "totalSupply",
      })) as bigint;
      await send(
        positionManager,
        encodeFunctionData({
          abi: npm,
          functionName: "mint",
          args: [
            {
              token0: pool.token0,
              token1: pool.token1,
              fee: pool.fee,
              tickLower,
              tickUpper,
              amount0Desired: amount0,
              amount1Desired: amount1,
              amount0Min: 0n,
              amount1Min: 0n,
              recipient: DEPLOYER,
              deadline: DEADLINE,
            },
          ],
        }),
      );
      // Token ids count up from 1 and none is burned here.
      return before + 1n;
    },
    async decreaseLiquidity(tokenId, liquidity) {
      await send(
        positionManager,
        encodeFunctionData({
          abi: npm,
          functionName: "decreaseLiquidity",
          args: [{ tokenId, liquidity, amount0Min: 0n, amount1Min: 0n, deadline: DEADLINE }],
        }),
      );
    },
    async positionLiquidity(tokenId) {
      const position = (await client.readContract({
        address: positionManager,
        abi: npm,
        functionName: "positions",
        args: [tokenId],
      })) as readonly unknown[];
      return position[7] as bigint;
    },
    stop: () => anvil.stop(),
  };
}
