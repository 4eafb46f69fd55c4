// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20Like {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IPancakeV3PoolLike {
    function initialize(uint160 sqrtPriceX96) external;
    function token0() external view returns (address);
    function token1() external view returns (address);
    function liquidity() external view returns (uint128);
    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, uint32, bool);
    function setFeeProtocol(uint32 feeProtocol0, uint32 feeProtocol1) external;
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256, uint256);
    function burn(int24 tickLower, int24 tickUpper, uint128 amount) external returns (uint256, uint256);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256, int256);
}

/// Test-only stand-in for PancakeV3PoolDeployer, the factory and the periphery: deploys the
/// official PancakeV3Pool build (which asks its deployer for its parameters), owns it as its
/// factory, and pays mints and swaps from the caller's approved balances.
contract PancakeV3Harness {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    Parameters public parameters;

    function deploy(bytes memory code, address token0, address token1, uint24 fee, int24 tickSpacing, uint160 sqrtPriceX96)
        external
        returns (address pool)
    {
        parameters = Parameters(address(this), token0, token1, fee, tickSpacing);
        assembly {
            pool := create(0, add(code, 32), mload(code))
        }
        require(pool != address(0), "deploy failed");
        delete parameters;
        IPancakeV3PoolLike(pool).initialize(sqrtPriceX96);
    }

    function setFeeProtocol(address pool, uint32 feeProtocol0, uint32 feeProtocol1) external {
        IPancakeV3PoolLike(pool).setFeeProtocol(feeProtocol0, feeProtocol1);
    }

    function mint(address pool, int24 tickLower, int24 tickUpper, uint128 amount) external {
        IPancakeV3PoolLike(pool).mint(address(this), tickLower, tickUpper, amount, abi.encode(msg.sender));
    }

    function burn(address pool, int24 tickLower, int24 tickUpper, uint128 amount) external {
        IPancakeV3PoolLike(pool).burn(tickLower, tickUpper, amount);
    }

    /// An exact-input swap (limit 0: as far as the price can go) and the pool's state after it.
    function swap(address pool, bool zeroForOne, int256 amountIn, uint160 sqrtPriceLimitX96)
        external
        returns (int256 amount0, int256 amount1, uint160 sqrtPriceX96, int24 tick, uint128 liquidity)
    {
        if (sqrtPriceLimitX96 == 0) {
            sqrtPriceLimitX96 = zeroForOne ? 4295128739 + 1 : 1461446703485210103287273052203988822378723970342 - 1;
        }
        (amount0, amount1) =
            IPancakeV3PoolLike(pool).swap(msg.sender, zeroForOne, amountIn, sqrtPriceLimitX96, abi.encode(msg.sender));
        (sqrtPriceX96, tick,,,,,) = IPancakeV3PoolLike(pool).slot0();
        liquidity = IPancakeV3PoolLike(pool).liquidity();
    }

    function pancakeV3MintCallback(uint256 amount0, uint256 amount1, bytes calldata data) external {
        _pay(abi.decode(data, (address)), amount0, amount1);
    }

    function pancakeV3SwapCallback(int256 amount0, int256 amount1, bytes calldata data) external {
        _pay(abi.decode(data, (address)), amount0 > 0 ? uint256(amount0) : 0, amount1 > 0 ? uint256(amount1) : 0);
    }

    function _pay(address payer, uint256 amount0, uint256 amount1) private {
        IPancakeV3PoolLike pool = IPancakeV3PoolLike(msg.sender);
        if (amount0 > 0) require(IERC20Like(pool.token0()).transferFrom(payer, msg.sender, amount0), "pay0");
        if (amount1 > 0) require(IERC20Like(pool.token1()).transferFrom(payer, msg.sender, amount1), "pay1");
    }
}
