// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A devnet equivalent of PancakeSwap's PancakeV3PoolDeployer (pancake-v3-contracts,
/// projects/v3-core/contracts/PancakeV3PoolDeployer.sol), whose build the npm package v3-core does not
/// ship. The factory (PancakeV3Factory) and the pools (PancakeV3Pool) the devnet runs are the
/// official npm builds; only this deployer is ours. It behaves as the official one: the factory,
/// set once by setFactoryAddress, alone may call deploy; deploy sets `parameters` for the pool's
/// constructor to read, creates the pool by CREATE2 with salt keccak256(abi.encode(token0, token1,
/// fee)) and clears them. The official deployer compiles the pool's creation code into its own
/// code (`new PancakeV3Pool{salt: ...}()`); we have that code only as the npm build's blob, so the
/// constructor stores it in a data contract (runtime code: a STOP byte, then the pool's creation
/// code) and deploy copies it from there: the init code, hence every pool's address, is exactly
/// the official one (init-code hash 0x6ce8eb47...f7e2).
contract DevnetPancakeV3PoolDeployer {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    /// Read by the pool's constructor during deploy; empty otherwise.
    Parameters public parameters;

    address public factoryAddress;

    /// The data contract holding the pool's creation code (after one STOP byte).
    address public immutable poolCode;

    event SetFactoryAddress(address indexed factory);

    modifier onlyFactory() {
        require(msg.sender == factoryAddress, "only factory can call deploy");
        _;
    }

    /// `poolCreationCode`: the official PancakeV3Pool build's creation code.
    constructor(bytes memory poolCreationCode) {
        bytes memory runtime = abi.encodePacked(hex"00", poolCreationCode);
        // PUSH2 len, DUP1, PUSH1 12, PUSH1 0, CODECOPY, PUSH1 0, RETURN: returns what follows.
        bytes memory init = abi.encodePacked(hex"61", uint16(runtime.length), hex"80600c6000396000f3", runtime);
        address data;
        assembly {
            data := create(0, add(init, 32), mload(init))
        }
        require(data != address(0), "pool code not stored");
        poolCode = data;
    }

    function setFactoryAddress(address _factoryAddress) external {
        require(factoryAddress == address(0), "already initialized");
        factoryAddress = _factoryAddress;
        emit SetFactoryAddress(_factoryAddress);
    }

    function deploy(
        address factory,
        address token0,
        address token1,
        uint24 fee,
        int24 tickSpacing
    ) external onlyFactory returns (address pool) {
        parameters = Parameters({factory: factory, token0: token0, token1: token1, fee: fee, tickSpacing: tickSpacing});
        bytes memory code = poolCode.code;
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        assembly {
            // Skip the length word and the STOP byte.
            pool := create2(0, add(code, 33), sub(mload(code), 1), salt)
        }
        require(pool != address(0), "pool not deployed");
        delete parameters;
    }
}
