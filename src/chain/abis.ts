import { parseAbi } from "viem";

/** Events of a Uniswap-V2-style pair that the indexer decodes. */
export const pairEventsAbi = parseAbi([
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
]);

/** Swap event of a Uniswap-V2-style pair. */
export const swapEventAbi = pairEventsAbi[0];
/** Sync event of a Uniswap-V2-style pair (reserves after every change). */
export const syncEventAbi = pairEventsAbi[1];

/** PairCreated event of a Uniswap-V2-style factory. */
export const pairCreatedEventAbi = parseAbi([
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256)",
])[0];

/** Read functions of a Uniswap-V2-style pair. */
export const pairAbi = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function factory() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
]);

/** Read functions of a Uniswap-V2-style factory. */
export const factoryAbi = parseAbi([
  "function getPair(address tokenA, address tokenB) view returns (address pair)",
  "function allPairsLength() view returns (uint256)",
  "function allPairs(uint256) view returns (address pair)",
]);

/** ERC-20 metadata and transfers. */
export const erc20Abi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function balanceOf(address owner) view returns (uint256)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);

/** Events of the wrapped native coin (WETH9 and its clones): routers wrap and unwrap through them. */
export const wrappedNativeEventsAbi = parseAbi([
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
]);

/**
 * Read functions of a V3 pool (Uniswap V3, PancakeSwap V3), outputs cut to the fields both
 * layouts share: slot0 stops at the tick (Uniswap's feeProtocol is a uint8 further on,
 * PancakeSwap's a uint32) and ticks() at liquidityNet.
 */
export const v3PoolAbi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick)",
  "function liquidity() view returns (uint128)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function tickBitmap(int16 wordPosition) view returns (uint256)",
  "function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet)",
]);
