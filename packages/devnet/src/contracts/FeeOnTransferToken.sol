// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./DevnetErc20.sol";

/// An ERC-20 that keeps a tax on every transfer (reflection tokens on BSC work this way): the
/// recipient gets the amount less `taxBps`, the collector gets the rest. Pools receive and send
/// less than the caller asked, so only the routers' "SupportingFeeOnTransferTokens" swaps work.
contract FeeOnTransferToken is DevnetErc20 {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint16 public immutable taxBps;
    address public immutable collector;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint16 taxBps_, uint256 initialSupply) {
        require(taxBps_ < 10_000, "FeeOnTransferToken: tax");
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        taxBps = taxBps_;
        collector = msg.sender;
        _mint(msg.sender, initialSupply);
    }

    /// Two moves: the amount less the tax to the recipient, then the tax to the collector.
    function _transfer(address from, address to, uint256 amount) internal override {
        _requireBalance(from, amount);
        // The collector itself moves tokens untaxed (it seeds pools and funds traders).
        uint256 tax = from == collector || to == collector ? 0 : (amount * taxBps) / 10_000;
        super._transfer(from, to, amount - tax);
        if (tax > 0) super._transfer(from, collector, tax);
    }

    function _label() internal pure override returns (string memory) {
        return "FeeOnTransferToken";
    }
}
