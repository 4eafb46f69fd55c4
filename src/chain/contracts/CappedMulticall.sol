// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Runs read-only calls for one eth_call and is never deployed: the eth_call has no `to`, its data
/// is this creation code followed by the ABI-encoded calls, and the constructor `return`s the
/// answer in place of runtime code (the "deployless" reads of viem and Multicall3).
///
/// Each call runs with its own gas cap and keeps at most its own number of answer bytes, so a
/// contract that burns gas or answers megabytes costs little gas and nothing on the wire; the
/// full answer size is reported, so a cut answer can still be decoded from its first bytes.
contract CappedMulticall {
    struct Call {
        address target;
        /// Gas the call may burn.
        uint256 gas;
        /// Bytes of its answer that are kept.
        uint256 maxReturnBytes;
        bytes data;
    }

    struct Result {
        /// False when the call reverted or ran out of its gas.
        bool success;
        /// Size of the whole answer (or revert data), of which `data` holds the first bytes.
        uint256 size;
        bytes data;
    }

    constructor(Call[] memory calls) {
        Result[] memory results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            Call memory c = calls[i];
            // A call gets at most 63/64 of the gas left: with less than its cap left it could fail
            // where it would have succeeded alone. Fail the whole read instead of lying.
            require(gasleft() > c.gas + c.gas / 63 + 10_000, "CappedMulticall: gas");
            address target = c.target;
            uint256 gasCap = c.gas;
            bytes memory data = c.data;
            bool success;
            uint256 size;
            assembly {
                success := call(gasCap, target, 0, add(data, 32), mload(data), 0, 0)
                size := returndatasize()
            }
            uint256 kept = size < c.maxReturnBytes ? size : c.maxReturnBytes;
            bytes memory answer = new bytes(kept);
            assembly {
                returndatacopy(add(answer, 32), 0, kept)
            }
            results[i] = Result(success, size, answer);
        }
        bytes memory encoded = abi.encode(results);
        assembly {
            return(add(encoded, 32), mload(encoded))
        }
    }
}
