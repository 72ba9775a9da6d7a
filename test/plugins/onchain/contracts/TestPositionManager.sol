// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Uniswap v3's NonfungiblePositionManager read interface (and its factory's getPool), with positions set directly.
/// collect() answers what a static call from the owner would: fees owed plus fees accrued since the last poke.
contract TestPositionManager {
    struct Position {
        address token0;
        address token1;
        uint24 fee;
        int24 tickLower;
        int24 tickUpper;
        uint128 liquidity;
        uint128 tokensOwed0;
        uint128 tokensOwed1;
        uint128 accrued0;
        uint128 accrued1;
    }

    struct CollectParams {
        uint256 tokenId;
        address recipient;
        uint128 amount0Max;
        uint128 amount1Max;
    }

    mapping(uint256 => Position) private stored;
    mapping(address => uint256[]) private owned;
    mapping(uint256 => address) public ownerOf;
    mapping(bytes32 => address) private pools;

    function factory() external view returns (address) {
        return address(this);
    }

    function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address) {
        return pools[keccak256(abi.encode(tokenA, tokenB, fee))];
    }

    function setPool(address token0, address token1, uint24 fee, address pool) external {
        pools[keccak256(abi.encode(token0, token1, fee))] = pool;
    }

    function mint(address owner, uint256 tokenId, Position calldata position) external {
        stored[tokenId] = position;
        owned[owner].push(tokenId);
        ownerOf[tokenId] = owner;
    }

    function balanceOf(address owner) external view returns (uint256) {
        return owned[owner].length;
    }

    function tokenOfOwnerByIndex(address owner, uint256 index) external view returns (uint256) {
        return owned[owner][index];
    }

    function positions(uint256 tokenId)
        external
        view
        returns (uint96, address, address, address, uint24, int24, int24, uint128, uint256, uint256, uint128, uint128)
    {
        Position memory p = stored[tokenId];
        require(p.token0 != address(0), "Invalid token ID");
        return (0, address(0), p.token0, p.token1, p.fee, p.tickLower, p.tickUpper, p.liquidity, 0, 0, p.tokensOwed0, p.tokensOwed1);
    }

    function collect(CollectParams calldata params) external view returns (uint256, uint256) {
        require(msg.sender == ownerOf[params.tokenId], "Not approved");
        Position memory p = stored[params.tokenId];
        uint256 fees0 = uint256(p.tokensOwed0) + p.accrued0;
        uint256 fees1 = uint256(p.tokensOwed1) + p.accrued1;
        return (fees0 < params.amount0Max ? fees0 : params.amount0Max, fees1 < params.amount1Max ? fees1 : params.amount1Max);
    }
}
