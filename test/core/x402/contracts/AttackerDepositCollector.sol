// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20Transfer {
    function transfer(address to, uint256 value) external returns (bool);
}

// A deposit collector of an attacker's own, which the escrow accepts like any other: it pays each deposit from its
// own balance and asks nothing of the payer the channel names.
contract AttackerDepositCollector {
    function collect(address, address token, uint256 amount, bytes32, bytes calldata) external {
        require(IERC20Transfer(token).transfer(msg.sender, amount), "transfer failed");
    }
}
