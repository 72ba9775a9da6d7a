// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The part of a Uniswap v3 pool the lp-positions endpoint reads: slot0's price and tick.
contract TestV3Pool {
    uint160 private sqrtPriceX96;
    int24 private tick;

    constructor(uint160 sqrtPriceX96_, int24 tick_) {
        sqrtPriceX96 = sqrtPriceX96_;
        tick = tick_;
    }

    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, uint8, bool) {
        return (sqrtPriceX96, tick, 0, 1, 1, 0, true);
    }
}
