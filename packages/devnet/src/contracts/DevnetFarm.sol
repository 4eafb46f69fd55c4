// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Another protocol on the chain, for background traffic: a yield farm whose harvests emit a log
/// per pool and a reward log, as MasterChef-style farms do. It holds nothing and moves no coins;
/// only its logs matter (they share blocks, and eth_getLogs pages, with the DEX logs).
contract DevnetFarm {
    event Harvest(address indexed user, uint256 indexed pid, uint256 amount);
    event RewardPaid(address indexed user, uint256 reward);

    uint256 public harvests;

    /// Emits one Harvest per pool id, then the total as RewardPaid.
    function harvest(uint256[] calldata pids, uint256 amount) external {
        uint256 total = 0;
        for (uint256 i = 0; i < pids.length; i++) {
            emit Harvest(msg.sender, pids[i], amount + i);
            total += amount + i;
        }
        harvests += 1;
        emit RewardPaid(msg.sender, total);
    }
}
