// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The ERC-20 core the devnet's tokens share: supply, balances, allowances, transfer and approve.
/// A token adds its metadata and may override `_transfer` (a tax, say); revert reasons name the
/// token's own contract (`DevnetToken: balance`) through `_label`.
abstract contract DevnetErc20 {
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

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
        // An infinite approval stays infinite, as in most modern tokens.
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert(string.concat(_label(), ": allowance"));
            allowance[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal virtual {
        _requireBalance(from, amount);
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }

    function _mint(address to, uint256 amount) internal {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _requireBalance(address from, uint256 amount) internal view {
        // The reason is built only on the failing path: a require's message would be built every time.
        if (balanceOf[from] < amount) revert(string.concat(_label(), ": balance"));
    }

    /// The contract's name, for revert reasons.
    function _label() internal pure virtual returns (string memory);
}
