import { parseAbi, parseAbiItem } from "viem";

/** The devnet's ERC-20 (DevnetToken.sol). */
export const devnetTokenAbi = parseAbi([
  "constructor(string name_, string symbol_, uint8 decimals_, uint256 initialSupply)",
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address) view returns (uint256)",
  "function mint(address to, uint256 amount)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function transfer(address to, uint256 amount) returns (bool)",
]);

/** The wrapped native coin (WrappedNative.sol, WETH9's interface). */
export const wrappedNativeAbi = parseAbi([
  "constructor(string name_, string symbol_)",
  "function deposit() payable",
  "function withdraw(uint256 wad)",
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
]);

/** The parts of UniswapV2Factory the devnet uses. */
export const uniswapV2FactoryAbi = parseAbi([
  "constructor(address _feeToSetter)",
  "function getPair(address tokenA, address tokenB) view returns (address pair)",
  "function allPairsLength() view returns (uint256)",
]);

/** The parts of UniswapV2Router02 the devnet uses. */
export const uniswapV2RouterAbi = parseAbi([
  "constructor(address _factory, address _WETH)",
  "function factory() view returns (address)",
  "function WETH() view returns (address)",
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)",
  "function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)",
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
]);

/** The parts of UniswapV2Pair the devnet uses. */
export const uniswapV2PairAbi = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
]);

/** UniswapV2Pair's Swap event, for eth_getLogs filters. */
export const swapEvent = parseAbiItem(
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
);

/** DevnetFarm.sol: another protocol whose harvests only emit logs. */
export const devnetFarmAbi = parseAbi([
  "function harvest(uint256[] pids, uint256 amount)",
  "function harvests() view returns (uint256)",
  "event Harvest(address indexed user, uint256 indexed pid, uint256 amount)",
  "event RewardPaid(address indexed user, uint256 reward)",
]);
