import { parseAbi, type Address } from "viem";
import type { ChainSlug } from "../_shared/chains.ts";

/** Uniswap v3 NonfungiblePositionManager deployments (Uniswap's published deployment addresses). */
export const positionManagers: Partial<Record<ChainSlug, Address>> = {
  ethereum: "0xC36442b4a4522E871399CD717aBDD847Ab11FE88",
  optimism: "0xC36442b4a4522E871399CD717aBDD847Ab11FE88",
  arbitrum: "0xC36442b4a4522E871399CD717aBDD847Ab11FE88",
  polygon: "0xC36442b4a4522E871399CD717aBDD847Ab11FE88",
  base: "0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1",
  bsc: "0x7b8A01B39D58278b5DE7e48c8449c9f4F5170613",
  avalanche: "0x655C406EBFa14EE2006250925e54ec43AD184f8B",
  sepolia: "0x1238536071E1c677A632429e3655c799b22cDA52",
  "base-sepolia": "0x27F971cb582BF9E50F397e4d29a5C7A34f11faA2",
};

export const positionManagerAbi = parseAbi([
  "function balanceOf(address owner) view returns (uint256)",
  "function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)",
  "function factory() view returns (address)",
  "function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)",
  "struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }",
  "function collect(CollectParams params) returns (uint256 amount0, uint256 amount1)",
]);

export const factoryAbi = parseAbi([
  "function getPool(address tokenA, address tokenB, uint24 fee) view returns (address)",
]);
export const poolAbi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
]);

const Q96 = 1n << 96n;
const MAX_UINT256 = (1n << 256n) - 1n;

// TickMath.getSqrtRatioAtTick: 1/sqrt(1.0001^(2^i)) in Q128.128 for each bit of the tick, as in Uniswap's v3-core.
const MULTIPLIERS = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

export function sqrtRatioAtTick(tick: number): bigint {
  const absTick = Math.abs(tick);
  let ratio = 1n << 128n;
  MULTIPLIERS.forEach((m, bit) => {
    if (absTick & (1 << bit)) ratio = (ratio * m) >> 128n;
  });
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/** LiquidityAmounts.getAmountsForLiquidity: what the position would withdraw at the pool's current price. */
export function amountsForLiquidity(sqrtPrice: bigint, tickLower: number, tickUpper: number, liquidity: bigint) {
  const a = sqrtRatioAtTick(tickLower);
  const b = sqrtRatioAtTick(tickUpper);
  const amount0For = (from: bigint) => ((liquidity << 96n) * (b - from)) / b / from;
  const amount1For = (to: bigint) => (liquidity * (to - a)) / Q96;
  if (sqrtPrice <= a) return { amount0: amount0For(a), amount1: 0n };
  if (sqrtPrice < b) return { amount0: amount0For(sqrtPrice), amount1: amount1For(sqrtPrice) };
  return { amount0: 0n, amount1: amount1For(b) };
}

/** Price of token0 in token1 (human units) from a tick, at the tokens' decimals. */
export const priceAtTick = (tick: number, decimals0: number, decimals1: number) =>
  1.0001 ** tick * 10 ** (decimals0 - decimals1);
