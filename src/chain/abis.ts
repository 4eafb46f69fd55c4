import { parseAbi } from "viem";

/**
 * Events of a Uniswap-V2-style pair that the indexer decodes.
 * @internal exported for tests and the bench, which read pair logs with it.
 */
export const pairEventsAbi = parseAbi([
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
  "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
]);

/** Mint of a Uniswap-V2-style pair (liquidity added; `sender` is who called mint, usually a router). */
export const pairMintEventAbi = pairEventsAbi[2];
/** Burn of a Uniswap-V2-style pair (liquidity removed and sent to `to`). */
export const pairBurnEventAbi = pairEventsAbi[3];

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

/** Events of a concentrated-liquidity pool (Uniswap V3; PancakeSwap V3 differs only in Swap). */
export const v3PoolEventsAbi = parseAbi([
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
  "event Initialize(uint160 sqrtPriceX96, int24 tick)",
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Collect(address indexed owner, address recipient, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount0, uint128 amount1)",
  "event CollectProtocol(address indexed sender, address indexed recipient, uint128 amount0, uint128 amount1)",
  "event Flash(address indexed sender, address indexed recipient, uint256 amount0, uint256 amount1, uint256 paid0, uint256 paid1)",
]);

/** PancakeSwap V3's Swap: Uniswap V3's with the protocol fees of both tokens after it. */
export const pancakeV3SwapEventAbi = parseAbi([
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1)",
])[0];

/** PoolCreated of a V3 factory (Uniswap V3 and PancakeSwap V3 alike). */
export const poolCreatedEventAbi = parseAbi([
  "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)",
])[0];

/**
 * Read functions of a V3 pool (Uniswap V3, PancakeSwap V3) and its factory's getPool, outputs
 * cut to the fields both layouts share: slot0 stops at the tick (Uniswap's feeProtocol is a
 * uint8 further on, PancakeSwap's a uint32) and ticks() at liquidityNet.
 */
export const v3PoolAbi = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function factory() view returns (address)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick)",
  "function liquidity() view returns (uint128)",
  "function tickBitmap(int16 wordPosition) view returns (uint256)",
  "function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet)",
]);
