// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// An ERC-20 that keeps a tax on every transfer (reflection tokens on BSC work this way): the
/// recipient gets the amount less `taxBps`, the collector gets the rest. Pools receive and send
/// less than the caller asked, so only the routers' "SupportingFeeOnTransferTokens" swaps work.
contract FeeOnTransferToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint16 public immutable taxBps;
    address public immutable collector;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint16 taxBps_, uint256 initialSupply) {
        require(taxBps_ < 10_000, "FeeOnTransferToken: tax");
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        taxBps = taxBps_;
        collector = msg.sender;
        totalSupply = initialSupply;
        balanceOf[msg.sender] = initialSupply;
        emit Transfer(address(0), msg.sender, initialSupply);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= amount, "FeeOnTransferToken: allowance");
            allowance[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        require(balanceOf[from] >= amount, "FeeOnTransferToken: balance");
        // The collector itself moves tokens untaxed (it seeds pools and funds traders).
        uint256 tax = from == collector || to == collector ? 0 : (amount * taxBps) / 10_000;
        balanceOf[from] -= amount;
        balanceOf[to] += amount - tax;
        emit Transfer(from, to, amount - tax);
        if (tax > 0) {
            balanceOf[collector] += tax;
            emit Transfer(from, collector, tax);
        }
    }
}
