// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./DevnetV3Pool.sol";

/// The part of a Uniswap V2 pair the V2-then-V3 route calls.
interface IDevnetV2Pair {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// A small router and position helper for concentrated-liquidity pools of both families: Uniswap
/// V3 and PancakeSwap V3 (the same pool interface; the callbacks differ only by name). It trades
/// pools by address (one pool, or several in a row), opens positions owned by whoever it is told
/// (they burn and collect on the pool directly, as owners do), and moves a pool to a target price
/// (a swap whose price limit is the target: it stops exactly there). Payers approve this contract.
/// A callback pays only a pool its factory knows.
contract DevnetV3Router {
    address public immutable factory;

    uint160 internal constant MIN_SQRT_RATIO = 4295128739;
    uint160 internal constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    constructor(address factory_) {
        factory = factory_;
    }

    /// Swaps `amountIn` of one side of `pool` for the other; a zero limit means none.
    function exactInputSingle(
        address pool,
        bool zeroForOne,
        uint256 amountIn,
        uint256 amountOutMinimum,
        address recipient,
        uint160 sqrtPriceLimitX96
    ) external returns (uint256 amountOut) {
        amountOut = _swap(pool, zeroForOne, amountIn, recipient, msg.sender, sqrtPriceLimitX96);
        require(amountOut >= amountOutMinimum, "too little received");
    }

    /// Swaps `amountIn` of `tokenIn` through `pools` in order, each hop's output paying the next.
    function exactInput(
        address[] calldata pools,
        address tokenIn,
        uint256 amountIn,
        uint256 amountOutMinimum,
        address recipient
    ) external returns (uint256 amountOut) {
        amountOut = amountIn;
        address token = tokenIn;
        for (uint256 i = 0; i < pools.length; i++) {
            address pool = pools[i];
            address token0 = IDevnetV3Pool(pool).token0();
            bool zeroForOne = token == token0;
            require(zeroForOne || token == IDevnetV3Pool(pool).token1(), "pool lacks the token");
            bool last = i + 1 == pools.length;
            amountOut = _swap(
                pool,
                zeroForOne,
                amountOut,
                last ? recipient : address(this),
                i == 0 ? msg.sender : address(this),
                0
            );
            token = zeroForOne ? IDevnetV3Pool(pool).token1() : token0;
        }
        require(amountOut >= amountOutMinimum, "too little received");
    }

    /// One trade routed as aggregators do across designs: `amountIn` of tokenIn from the caller
    /// into a V2 `pair` (its output, computed from its reserves with `feeBps`, comes here), then
    /// that output through the V3 `pool` to `recipient`.
    function swapV2ThenV3(
        address pair,
        uint16 feeBps,
        address tokenIn,
        uint256 amountIn,
        address pool,
        address recipient
    ) external returns (uint256 amountOut) {
        require(IDevnetV3Erc20(tokenIn).transferFrom(msg.sender, pair, amountIn), "payment failed");
        (uint112 reserve0, uint112 reserve1, ) = IDevnetV2Pair(pair).getReserves();
        bool inIsZero = tokenIn == IDevnetV2Pair(pair).token0();
        (uint256 reserveIn, uint256 reserveOut) = inIsZero ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 withFee = amountIn * (10000 - feeBps);
        uint256 middle = (withFee * reserveOut) / (reserveIn * 10000 + withFee);
        IDevnetV2Pair(pair).swap(inIsZero ? 0 : middle, inIsZero ? middle : 0, address(this), "");
        address middleToken = inIsZero ? IDevnetV2Pair(pair).token1() : IDevnetV2Pair(pair).token0();
        bool zeroForOne = middleToken == IDevnetV3Pool(pool).token0();
        amountOut = _swap(pool, zeroForOne, middle, recipient, address(this), 0);
    }

    /// Moves `pool` to `sqrtPriceTargetX96` by one swap paid by the caller (no swap when there
    /// already); `maxAmountIn` caps what it may take.
    function swapToPrice(address pool, uint160 sqrtPriceTargetX96, uint256 maxAmountIn) external {
        (uint160 sqrtPriceX96, ) = _slot0(pool);
        if (sqrtPriceX96 == sqrtPriceTargetX96) return;
        _swap(pool, sqrtPriceTargetX96 < sqrtPriceX96, maxAmountIn, msg.sender, msg.sender, sqrtPriceTargetX96);
    }

    /// Adds `liquidity` in [tickLower, tickUpper) to `pool` for `recipient`, paid by the caller.
    function mint(
        address pool,
        address recipient,
        int24 tickLower,
        int24 tickUpper,
        uint128 liquidity
    ) external returns (uint256 amount0, uint256 amount1) {
        (amount0, amount1) = IDevnetV3Pool(pool).mint(recipient, tickLower, tickUpper, liquidity, abi.encode(msg.sender));
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        _paySwap(amount0Delta, amount1Delta, data);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        _paySwap(amount0Delta, amount1Delta, data);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external {
        _payMint(amount0Owed, amount1Owed, data);
    }

    function pancakeV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external {
        _payMint(amount0Owed, amount1Owed, data);
    }

    function _swap(
        address pool,
        bool zeroForOne,
        uint256 amountIn,
        address recipient,
        address payer,
        uint160 sqrtPriceLimitX96
    ) internal returns (uint256 amountOut) {
        require(amountIn <= uint256(type(int256).max), "amount too large");
        uint160 limit = sqrtPriceLimitX96 != 0
            ? sqrtPriceLimitX96
            : (zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1);
        (int256 amount0, int256 amount1) = IDevnetV3Pool(pool).swap(
            recipient,
            zeroForOne,
            int256(amountIn),
            limit,
            abi.encode(payer)
        );
        amountOut = uint256(-(zeroForOne ? amount1 : amount0));
    }

    function _paySwap(int256 amount0Delta, int256 amount1Delta, bytes calldata data) internal {
        (address token0, address token1) = _checkPool();
        address payer = abi.decode(data, (address));
        if (amount0Delta > 0) _pay(token0, payer, uint256(amount0Delta));
        if (amount1Delta > 0) _pay(token1, payer, uint256(amount1Delta));
    }

    function _payMint(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) internal {
        (address token0, address token1) = _checkPool();
        address payer = abi.decode(data, (address));
        if (amount0Owed > 0) _pay(token0, payer, amount0Owed);
        if (amount1Owed > 0) _pay(token1, payer, amount1Owed);
    }

    /// The calling pool's tokens; reverts unless the factory created it.
    function _checkPool() internal view returns (address token0, address token1) {
        token0 = IDevnetV3Pool(msg.sender).token0();
        token1 = IDevnetV3Pool(msg.sender).token1();
        uint24 fee = IDevnetV3Pool(msg.sender).fee();
        require(IDevnetV3Factory(factory).getPool(token0, token1, fee) == msg.sender, "not a pool of the factory");
    }

    function _pay(address token, address payer, uint256 amount) internal {
        bool ok = payer == address(this)
            ? IDevnetV3Erc20(token).transfer(msg.sender, amount)
            : IDevnetV3Erc20(token).transferFrom(payer, msg.sender, amount);
        require(ok, "payment failed");
    }

    function _slot0(address pool) internal view returns (uint160 sqrtPriceX96, int24 tick) {
        // Both families' slot0 begin with these two; their fee-protocol field differs in width.
        (bool ok, bytes memory data) = pool.staticcall(abi.encodeWithSignature("slot0()"));
        require(ok && data.length >= 64, "no slot0");
        (sqrtPriceX96, tick) = abi.decode(data, (uint160, int24));
    }
}
