// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC3009Receive {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external;
    function transfer(address to, uint256 value) external returns (bool);
}

// Pulls a payer's deposit with its ERC-3009 receiveWithAuthorization and hands it to the batch-settlement
// escrow. Only the escrow may call it: the authorization names this contract as its recipient, so anyone
// else holding a copy of it could otherwise redirect the deposit.
contract Erc3009DepositCollector {
    address public constant SETTLEMENT = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    error OnlySettlement();

    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata data) external {
        if (msg.sender != SETTLEMENT) revert OnlySettlement();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(data, (uint256, uint256, uint256, bytes));
        // The nonce binds the authorization to this one channel.
        bytes32 nonce = keccak256(abi.encode(channelId, salt));
        IERC3009Receive(token).receiveWithAuthorization(
            payer, address(this), amount, validAfter, validBefore, nonce, signature
        );
        if (!IERC3009Receive(token).transfer(SETTLEMENT, amount)) revert OnlySettlement();
    }
}
