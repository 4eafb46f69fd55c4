// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IDevnetPair {
    function token0() external view returns (address);
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface IWrappedNative {
    function deposit() external payable;
    function withdraw(uint256 wad) external;
}

interface IDevnetErc20 {
    function balanceOf(address owner) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// Swaps the way aggregators do: several routes in one transaction, each calling V2 pairs
/// directly with amounts computed from their reserves. A route either sends each hop's output
/// straight to the next pair (as Router02 does) or takes it in and forwards it (`viaSelf`). A
/// route may be paid in the native coin (`nativeIn`: wrapped here from the transaction's value,
/// path[0] being the wrapped coin) or pay out in it (`nativeOut`: the last pair pays here, and the
/// wrapped coin is unwrapped and sent on), while the other routes of the transaction use ERC-20s.
contract DevnetAggregator {
    struct Route {
        /// Pairs in hop order.
        address[] pairs;
        /// Tokens along the route: pairs.length + 1 of them.
        address[] path;
        /// Each pair's fee over 10,000 (30 for Uniswap V2, 25 for PancakeSwap V2).
        uint16[] feeBps;
        uint256 amountIn;
        bool viaSelf;
        bool nativeIn;
        bool nativeOut;
    }

    /// Runs the routes in order; the caller pays each route's input (the native ones with the
    /// transaction's value, which must be their sum) and receives its output.
    function execute(Route[] calldata routes) external payable {
        uint256 paid = 0;
        for (uint256 i = 0; i < routes.length; i++) {
            if (routes[i].nativeIn) paid += routes[i].amountIn;
            _run(routes[i]);
        }
        require(paid == msg.value, "DevnetAggregator: value");
    }

    /// The wrapped coin's withdraw pays the native coin here.
    receive() external payable {}

    function _run(Route calldata route) private {
        uint256 hops = route.pairs.length;
        require(hops > 0 && route.path.length == hops + 1 && route.feeBps.length == hops, "DevnetAggregator: route");
        if (route.nativeIn) {
            IWrappedNative(route.path[0]).deposit{value: route.amountIn}();
            require(IDevnetErc20(route.path[0]).transfer(route.pairs[0], route.amountIn), "DevnetAggregator: in");
        } else {
            require(IDevnetErc20(route.path[0]).transferFrom(msg.sender, route.pairs[0], route.amountIn), "DevnetAggregator: in");
        }
        for (uint256 h = 0; h < hops; h++) {
            bool last = h + 1 == hops;
            address recipient = last
                ? (route.nativeOut ? address(this) : msg.sender)
                : route.viaSelf ? address(this) : route.pairs[h + 1];
            uint256 amountOut = _hop(route.pairs[h], route.path[h], route.feeBps[h], recipient);
            if (!last && route.viaSelf) {
                require(IDevnetErc20(route.path[h + 1]).transfer(route.pairs[h + 1], amountOut), "DevnetAggregator: forward");
            }
            if (last && route.nativeOut) {
                IWrappedNative(route.path[hops]).withdraw(amountOut);
                (bool sent, ) = msg.sender.call{value: amountOut}("");
                require(sent, "DevnetAggregator: out");
            }
        }
    }

    /// Swaps what `pair` received of `input` since its last sync, as Router02's fee-on-transfer path does.
    function _hop(address pair, address input, uint16 feeBps, address recipient) private returns (uint256 amountOut) {
        (uint112 reserve0, uint112 reserve1,) = IDevnetPair(pair).getReserves();
        bool zeroIn = IDevnetPair(pair).token0() == input;
        (uint256 reserveIn, uint256 reserveOut) = zeroIn ? (uint256(reserve0), uint256(reserve1)) : (uint256(reserve1), uint256(reserve0));
        uint256 amountIn = IDevnetErc20(input).balanceOf(pair) - reserveIn;
        uint256 withFee = amountIn * (10_000 - feeBps);
        amountOut = (withFee * reserveOut) / (reserveIn * 10_000 + withFee);
        IDevnetPair(pair).swap(zeroIn ? 0 : amountOut, zeroIn ? amountOut : 0, recipient, "");
    }
}
