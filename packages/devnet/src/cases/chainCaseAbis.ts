import { parseAbi } from "viem";

/** FeeOnTransferToken.sol. */
export const feeOnTransferTokenAbi = parseAbi([
  "constructor(string name_, string symbol_, uint8 decimals_, uint16 taxBps_, uint256 initialSupply)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function transfer(address to, uint256 amount) returns (bool)",
  "function balanceOf(address) view returns (uint256)",
]);

/** DevnetAggregator.sol. */
export const devnetAggregatorAbi = parseAbi([
  "struct Route { address[] pairs; address[] path; uint16[] feeBps; uint256 amountIn; bool viaSelf; bool nativeIn; bool nativeOut; }",
  "function execute(Route[] routes) payable",
]);

/** Router02's fee-on-transfer swaps and liquidity functions the chain cases call. */
export const feeOnTransferRouterAbi = parseAbi([
  "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)",
  "function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)",
  "function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable",
  "function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
]);

/** A V2 pair called directly (no router). */
export const directPairAbi = parseAbi([
  "function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)",
]);

/**
 * UniswapV2Factory's PairCreated event.
 * @internal exported for tests, which read the devnet's logs with it.
 */
export const pairCreatedAbi = parseAbi([
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength)",
]);
