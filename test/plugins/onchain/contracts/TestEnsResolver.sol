// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A public resolver's read side: addr, name (reverse records) and text records, with open setters for the test.
contract TestEnsResolver {
    mapping(bytes32 => address) public addr;
    mapping(bytes32 => string) public name;
    mapping(bytes32 => mapping(string => string)) public text;

    function setAddr(bytes32 node, address value) external {
        addr[node] = value;
    }

    function setName(bytes32 node, string calldata value) external {
        name[node] = value;
    }

    function setText(bytes32 node, string calldata key, string calldata value) external {
        text[node][key] = value;
    }
}
