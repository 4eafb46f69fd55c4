// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./DevnetV3Pool.sol";

/// A quoter for PancakeSwap V3 (whose QuoterV2 build npm does not ship) with Uniswap's QuoterV2
/// interface and answers, so tests compare quotes on every chain alike; it serves Uniswap V3
/// pools too. Like QuoterV2 it is not a view: each hop runs the pool's real swap, whose callback
/// reverts with the result (amount out, price and tick after), and the revert is decoded.
contract DevnetV3Quoter {
    struct QuoteExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint24 fee;
        uint160 sqrtPriceLimitX96;
    }

    address public immutable factory;

    uint160 internal constant MIN_SQRT_RATIO = 4295128739;
    uint160 internal constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    constructor(address factory_) {
        factory = factory_;
    }

    /// What swapping `amountIn` of tokenIn in the (tokenIn, tokenOut, fee) pool gives now.
    function quoteExactInputSingle(
        QuoteExactInputSingleParams memory params
    )
        public
        returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)
    {
        address pool = IDevnetV3Factory(factory).getPool(params.tokenIn, params.tokenOut, params.fee);
        require(pool != address(0), "no pool");
        bool zeroForOne = params.tokenIn < params.tokenOut;
        (, int24 tickBefore) = _slot0(pool);
        uint256 gasBefore = gasleft();
        int24 tickAfter;
        try
            IDevnetV3Pool(pool).swap(
                address(this),
                zeroForOne,
                int256(params.amountIn),
                params.sqrtPriceLimitX96 != 0
                    ? params.sqrtPriceLimitX96
                    : (zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1),
                ""
            )
        {
            revert("swap did not revert");
        } catch (bytes memory reason) {
            gasEstimate = gasBefore - gasleft();
            (amountOut, sqrtPriceX96After, tickAfter) = _decode(reason);
        }
        initializedTicksCrossed = _countInitializedTicksCrossed(pool, tickBefore, tickAfter);
    }

    /// The same along a path: tokenIn (20 bytes), then per hop fee (3 bytes) and the next token.
    function quoteExactInput(
        bytes memory path,
        uint256 amountIn
    )
        external
        returns (
            uint256 amountOut,
            uint160[] memory sqrtPriceX96AfterList,
            uint32[] memory initializedTicksCrossedList,
            uint256 gasEstimate
        )
    {
        require(path.length >= 43 && (path.length - 20) % 23 == 0, "bad path");
        uint256 hops = (path.length - 20) / 23;
        sqrtPriceX96AfterList = new uint160[](hops);
        initializedTicksCrossedList = new uint32[](hops);
        amountOut = amountIn;
        for (uint256 i = 0; i < hops; i++) {
            uint256 gas;
            (amountOut, sqrtPriceX96AfterList[i], initializedTicksCrossedList[i], gas) = _quoteHop(path, i, amountOut);
            gasEstimate += gas;
        }
    }

    function _quoteHop(
        bytes memory path,
        uint256 hop,
        uint256 amountIn
    ) internal returns (uint256, uint160, uint32, uint256) {
        QuoteExactInputSingleParams memory params;
        params.tokenIn = _address(path, hop * 23);
        params.fee = _fee(path, hop * 23 + 20);
        params.tokenOut = _address(path, hop * 23 + 23);
        params.amountIn = amountIn;
        return quoteExactInputSingle(params);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external view {
        _revertWithResult(amount0Delta, amount1Delta);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external view {
        _revertWithResult(amount0Delta, amount1Delta);
    }

    function _revertWithResult(int256 amount0Delta, int256 amount1Delta) internal view {
        require(amount0Delta > 0 || amount1Delta > 0, "no swap");
        (uint160 sqrtPriceX96, int24 tick) = _slot0(msg.sender);
        uint256 amountOut = uint256(-(amount0Delta > 0 ? amount1Delta : amount0Delta));
        assembly {
            let ptr := mload(0x40)
            mstore(ptr, amountOut)
            mstore(add(ptr, 0x20), sqrtPriceX96)
            mstore(add(ptr, 0x40), tick)
            revert(ptr, 96)
        }
    }

    function _decode(bytes memory reason) internal pure returns (uint256, uint160, int24) {
        if (reason.length != 96) {
            assembly {
                revert(add(reason, 32), mload(reason))
            }
        }
        return abi.decode(reason, (uint256, uint160, int24));
    }

    /// Initialized ticks between the two ticks, as QuoterV2 counts them: a tick the price stopped
    /// exactly on is not crossed yet (the one after a downward swap, or before an upward one).
    function _countInitializedTicksCrossed(
        address pool,
        int24 tickBefore,
        int24 tickAfter
    ) internal view returns (uint32 crossed) {
        int24 spacing = IDevnetV3Pool(pool).tickSpacing();
        (int24 lower, int24 upper) = tickBefore < tickAfter ? (tickBefore, tickAfter) : (tickAfter, tickBefore);
        int24 from = _compress(lower, spacing);
        int24 to = _compress(upper, spacing);
        for (int24 word = from >> 8; word <= to >> 8; word++) {
            uint256 bits = IDevnetV3Pool(pool).tickBitmap(int16(word));
            if (bits == 0) continue;
            if (word == from >> 8) bits &= type(uint256).max << uint8(uint24(from) & 0xff);
            if (word == to >> 8) bits &= type(uint256).max >> (255 - uint8(uint24(to) & 0xff));
            crossed += _popcount(bits);
        }
        if (crossed > 0 && _isInitialized(pool, tickAfter, spacing) && tickBefore > tickAfter) crossed--;
        if (crossed > 0 && _isInitialized(pool, tickBefore, spacing) && tickBefore < tickAfter) crossed--;
    }

    function _isInitialized(address pool, int24 tick, int24 spacing) internal view returns (bool) {
        if (tick % spacing != 0) return false;
        int24 compressed = tick / spacing;
        uint256 bits = IDevnetV3Pool(pool).tickBitmap(int16(compressed >> 8));
        return bits & (uint256(1) << uint8(uint24(compressed) & 0xff)) != 0;
    }

    function _compress(int24 tick, int24 spacing) internal pure returns (int24 compressed) {
        compressed = tick / spacing;
        if (tick < 0 && tick % spacing != 0) compressed--;
    }

    function _popcount(uint256 x) internal pure returns (uint32 count) {
        while (x != 0) {
            x &= x - 1;
            count++;
        }
    }

    function _address(bytes memory path, uint256 at) internal pure returns (address a) {
        assembly {
            a := shr(96, mload(add(add(path, 32), at)))
        }
    }

    function _fee(bytes memory path, uint256 at) internal pure returns (uint24 f) {
        assembly {
            f := shr(232, mload(add(add(path, 32), at)))
        }
    }

    function _slot0(address pool) internal view returns (uint160 sqrtPriceX96, int24 tick) {
        (bool ok, bytes memory data) = pool.staticcall(abi.encodeWithSignature("slot0()"));
        require(ok && data.length >= 64, "no slot0");
        (sqrtPriceX96, tick) = abi.decode(data, (uint160, int24));
    }
}
