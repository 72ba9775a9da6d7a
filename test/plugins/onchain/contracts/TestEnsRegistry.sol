// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The ENS registry's read side (resolver per node) with an open setter: the test places it at the mainnet registry address.
contract TestEnsRegistry {
    mapping(bytes32 => address) public resolver;

    function setResolver(bytes32 node, address resolver_) external {
        resolver[node] = resolver_;
    }
}
