// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./DevnetErc20.sol";

/// A plain ERC-20 with real-world metadata for the devnet; the deployer can mint to fund traders.
contract DevnetToken is DevnetErc20 {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    address public immutable minter;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 initialSupply) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        minter = msg.sender;
        _mint(msg.sender, initialSupply);
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "DevnetToken: not minter");
        _mint(to, amount);
    }

    function _label() internal pure override returns (string memory) {
        return "DevnetToken";
    }
}
