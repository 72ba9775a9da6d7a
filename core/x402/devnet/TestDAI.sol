// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A plain ERC-20 for the local devnet, as a token without EIP-3009 looks to x402: 18 decimals, `transfer`,
/// `approve` and `transferFrom`, nothing signed (no EIP-3009, no EIP-2612), like USDT. Paid for through Permit2 only.
/// Every holder named at deployment gets `each`; nobody can mint afterwards.
contract TestDAI {
    string public constant name = "Test DAI";
    string public constant symbol = "DAI";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(address[] memory holders, uint256 each) {
        for (uint256 i = 0; i < holders.length; i++) {
            balanceOf[holders[i]] += each;
            emit Transfer(address(0), holders[i], each);
        }
        totalSupply = each * holders.length;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ERC20: insufficient allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "ERC20: transfer to the zero address");
        require(balanceOf[from] >= value, "ERC20: transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
