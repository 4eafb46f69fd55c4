// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "./DevnetErc20.sol";

/// A working ERC-20 whose metadata attacks whoever reads it (devnet only); `kind` picks the attack:
/// 0 name and symbol of 1,000,000 bytes, 1 of 65,536 bytes, 2 the constructor's name and symbol
/// (control characters, markup), 3 decimals() 255, 4 decimals() burns all the gas it is given,
/// 5 decimals() burns all but 3,000 gas and then reverts.
contract HostileToken is DevnetErc20 {
    uint8 public immutable kind;
    string private plainName;
    string private plainSymbol;

    constructor(uint8 kind_, string memory name_, string memory symbol_, uint256 initialSupply) {
        kind = kind_;
        plainName = name_;
        plainSymbol = symbol_;
        _mint(msg.sender, initialSupply);
    }

    function name() external view returns (string memory) {
        if (kind == 0) return repeated(1_000_000, "HUGE");
        if (kind == 1) return repeated(65_536, "Long");
        return plainName;
    }

    function symbol() external view returns (string memory) {
        if (kind == 0) return repeated(1_000_000, "HUGE");
        if (kind == 1) return repeated(65_536, "Long");
        return plainSymbol;
    }

    function decimals() external view returns (uint8) {
        if (kind == 3) return 255;
        if (kind == 4) {
            uint256 spin;
            while (gasleft() > 0) spin++;
        }
        if (kind == 5) {
            uint256 spin;
            while (gasleft() > 3_000) spin++;
            revert("HostileToken: no decimals");
        }
        return 18;
    }

    function _label() internal pure override returns (string memory) {
        return "HostileToken";
    }

    /// `length` bytes of `unit` repeated, built by doubling copies (MCOPY) so the memory, not the
    /// loop, is what costs gas: 65,536 bytes fit in a metadata gas cap, 1,000,000 bytes need ~2.2M gas.
    function repeated(uint256 length, bytes4 unit) private pure returns (string memory text) {
        text = new string(length);
        bytes32 word = bytes32(unit) | (bytes32(unit) >> 32);
        word = word | (word >> 64);
        word = word | (word >> 128);
        assembly {
            let start := add(text, 32)
            mstore(start, word)
            for { let done := 32 } lt(done, length) {} {
                let n := done
                if gt(add(done, n), length) { n := sub(length, done) }
                mcopy(add(start, done), start, n)
                done := add(done, n)
            }
        }
    }
}
