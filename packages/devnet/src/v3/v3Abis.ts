import { parseAbi, parseAbiItem } from "viem";

/** What the devnet calls on both families' factories (UniswapV3Factory, PancakeV3Factory). */
export const v3FactoryAbi = parseAbi([
  "function createPool(address tokenA, address tokenB, uint24 fee) returns (address pool)",
  "function getPool(address tokenA, address tokenB, uint24 fee) view returns (address)",
  "function feeAmountTickSpacing(uint24 fee) view returns (int24)",
  "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)",
]);

/** DevnetPancakeV3PoolDeployer.sol (the official deployer's interface). */
export const pancakeV3PoolDeployerAbi = parseAbi([
  "constructor(bytes poolCreationCode)",
  "function setFactoryAddress(address _factoryAddress)",
  "function factoryAddress() view returns (address)",
  "function parameters() view returns (address factory, address token0, address token1, uint24 fee, int24 tickSpacing)",
  "function deploy(address factory, address token0, address token1, uint24 fee, int24 tickSpacing) returns (address pool)",
]);

/**
 * What the devnet calls on both families' pools. slot0 lists only the two fields both share
 * (their fee-protocol field differs in width; the rest is ignored when decoding).
 */
export const v3PoolAbi = parseAbi([
  "function initialize(uint160 sqrtPriceX96)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick)",
  "function liquidity() view returns (uint128)",
  "function tickSpacing() view returns (int24)",
  "function fee() view returns (uint24)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function burn(int24 tickLower, int24 tickUpper, uint128 amount) returns (uint256 amount0, uint256 amount1)",
  "function collect(address recipient, int24 tickLower, int24 tickUpper, uint128 amount0Requested, uint128 amount1Requested) returns (uint128 amount0, uint128 amount1)",
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
]);

/**
 * Uniswap V3's Swap event.
 * @internal exported for tests, which read the devnet's logs with it.
 */
export const uniswapV3SwapEvent = parseAbiItem(
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
);

/**
 * PancakeSwap V3's Swap event: two more fields (the protocol fees), hence another topic.
 * @internal exported for tests, which read the devnet's logs with it.
 */
export const pancakeV3SwapEvent = parseAbiItem(
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1)",
);

/** DevnetV3Router.sol: swaps and positions on both families' pools. */
export const devnetV3RouterAbi = parseAbi([
  "constructor(address factory_)",
  "function exactInputSingle(address pool, bool zeroForOne, uint256 amountIn, uint256 amountOutMinimum, address recipient, uint160 sqrtPriceLimitX96) returns (uint256 amountOut)",
  "function exactInput(address[] pools, address tokenIn, uint256 amountIn, uint256 amountOutMinimum, address recipient) returns (uint256 amountOut)",
  "function swapToPrice(address pool, uint160 sqrtPriceTargetX96, uint256 maxAmountIn)",
  "function swapV2ThenV3(address pair, uint16 feeBps, address tokenIn, uint256 amountIn, address pool, address recipient) returns (uint256 amountOut)",
  "function mint(address pool, address recipient, int24 tickLower, int24 tickUpper, uint128 liquidity) returns (uint256 amount0, uint256 amount1)",
]);

/**
 * Uniswap's QuoterV2 interface, which DevnetV3Quoter.sol implements too.
 * @internal exported for tests, which ask the devnet's quoter with it.
 */
export const quoterV2Abi = parseAbi([
  "struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }",
  "function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
  "function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)",
]);

/** The constructors of Uniswap's periphery the devnet deploys (SwapRouter, QuoterV2). */
export const uniswapV3PeripheryConstructorAbi = parseAbi(["constructor(address _factory, address _WETH9)"]);
