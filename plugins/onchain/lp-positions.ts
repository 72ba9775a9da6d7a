import * as v from "valibot";
import { getAddress, maxUint128, zeroAddress, type Address, type PublicClient } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainInfo, chains, type ChainSlug } from "../_shared/chains.ts";
import { formatAmount, readTokenMetadata, type TokenMetadata } from "./_erc20.ts";
import { addressField, checksummed, limitField } from "../_shared/onchain-inputs.ts";
import { NODES, probe, readNode } from "../_shared/chain-node.ts";
import { cents, chainPrices } from "./_prices.ts";
import {
  amountsForLiquidity,
  factoryAbi,
  poolAbi,
  positionManagerAbi,
  positionManagers,
  priceAtTick,
} from "./_uniswap-v3.ts";

/** Positions enumerated per wallet at most, before the pair filter and the limit. */
const MAX_SCANNED = 200;
const lpSlugs = chains.filter((c) => positionManagers[c.slug]).map((c) => c.slug) as ChainSlug[];
const usd = (what: string) => v.pipe(v.nullable(v.number()), v.description(what));

const side = v.object({
  token: v.string(),
  symbol: v.nullable(v.string()),
  decimals: v.nullable(v.number()),
  amount: v.pipe(v.nullable(v.string()), v.description("What the position would withdraw now (decimal)")),
  fees: v.pipe(v.nullable(v.string()), v.description("Uncollected fees (decimal)")),
  priceUsd: usd("DefiLlama price"),
});

export default defineEndpoint({
  name: "lp-positions",
  method: "GET",
  price: "$0.02",
  summary:
    "A wallet's Uniswap v3 liquidity positions: pool, fee tier, range, in range or not, token amounts, uncollected fees, USD value",
  description:
    "Read from the chain's node through Uniswap v3's NonfungiblePositionManager: the wallet's position NFTs (balanceOf, tokenOfOwnerByIndex), each position (positions), its pool's current price (factory getPool, slot0), amounts with Uniswap's own tick math, and uncollected fees from a static collect() call as the owner (falling back to tokensOwed). Closed positions (no liquidity, no fees) are counted, not listed. `pair` filters by symbols in either order (WETH/USDC). USD values use DefiLlama's current prices. Uniswap v4 positions are not covered.",
  input: v.object({
    address: addressField("Wallet address holding the position NFTs"),
    chain: v.optional(
      v.pipe(
        v.picklist(lpSlugs, `must be one of: ${lpSlugs.join(", ")}`),
        v.description(`Network with Uniswap v3: ${lpSlugs.join(", ")}`),
      ),
      "ethereum",
    ),
    limit: limitField(20, 50, "Most positions to return"),
    pair: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9.+$-]{1,20}\/[A-Za-z0-9.+$-]{1,20}$/, "must be two symbols like WETH/USDC"),
        v.description("Only positions in this pair, symbols in either order (WETH/USDC)"),
      ),
    ),
  }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    positionManager: v.string(),
    positions: v.array(
      v.object({
        tokenId: v.string(),
        pool: v.nullable(v.string()),
        feeTier: v.pipe(v.number(), v.description("Pool fee in hundredths of a basis point (3000 = 0.3%)")),
        token0: side,
        token1: side,
        tickLower: v.number(),
        tickUpper: v.number(),
        currentTick: v.nullable(v.number()),
        inRange: v.nullable(v.boolean()),
        priceLower: usd("token1 per token0 at the lower tick"),
        priceUpper: usd("token1 per token0 at the upper tick"),
        currentPrice: usd("token1 per token0 now"),
        liquidity: v.string(),
        valueUsd: usd("Both amounts at DefiLlama prices; null when a token is unpriced"),
        feesUsd: usd("Uncollected fees in USD"),
      }),
    ),
    totalPositions: v.pipe(v.number(), v.description("Position NFTs the wallet holds")),
    closedPositions: v.number(),
    totalUsd: v.number(),
  }),
  example: {
    input: { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", chain: "base", limit: 1 },
    output: {
      chain: "base",
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      positionManager: "0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1",
      positions: [
        {
          tokenId: "123456",
          pool: "0xd0b53D9277642d899DF5C87A3966A349A798F224",
          feeTier: 500,
          token0: {
            token: "0x4200000000000000000000000000000000000006",
            symbol: "WETH",
            decimals: 18,
            amount: "0.41",
            fees: "0.0012",
            priceUsd: 3300,
          },
          token1: {
            token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            symbol: "USDC",
            decimals: 6,
            amount: "1650.2",
            fees: "3.91",
            priceUsd: 1,
          },
          tickLower: -200200,
          tickUpper: -195200,
          currentTick: -197300,
          inRange: true,
          priceLower: 2036.64,
          priceUpper: 3357.76,
          currentPrice: 2725.28,
          liquidity: "4171842911011",
          valueUsd: 3003.2,
          feesUsd: 7.87,
        },
      ],
      totalPositions: 1,
      closedPositions: 0,
      totalUsd: 3003.2,
    },
  },
  cacheTtl: 60,
  upstreams: [...NODES, "defillama-coins"],
  async handler({ input, upstream }) {
    const owner = checksummed(input.address);
    const manager = positionManagers[input.chain]!;
    const chain = chainInfo(input.chain);
    const read = await readNode(upstream, input.chain, (client) => readPositions(client, manager, owner));
    const wanted = input.pair?.toUpperCase().split("/");
    const matches = (p: (typeof read.open)[number]) =>
      !wanted ||
      [p.meta0.symbol?.toUpperCase(), p.meta1.symbol?.toUpperCase()].sort().join("/") === [...wanted].sort().join("/");
    const listed = read.open.filter(matches).slice(0, input.limit);

    const tokens = [...new Set(listed.flatMap((p) => [p.token0, p.token1]))];
    const prices = await chainPrices(upstream("defillama-coins"), chain, tokens);
    const worth = (amounts: [string | null, number | null][]) =>
      amounts.every(([a, p]) => a !== null && p !== null)
        ? cents(amounts.reduce((sum, [a, p]) => sum + Number(a) * p!, 0))
        : null;

    const positions = listed.map((p) => {
      const d0 = p.meta0.decimals;
      const d1 = p.meta1.decimals;
      const sideOf = (token: Address, meta: TokenMetadata, amount: bigint | null, fees: bigint) => ({
        token,
        symbol: meta.symbol,
        decimals: meta.decimals,
        amount: amount === null ? null : formatAmount(amount, meta.decimals),
        fees: formatAmount(fees, meta.decimals),
        priceUsd: prices.token(token)?.price ?? null,
      });
      const token0 = sideOf(p.token0, p.meta0, p.amount0, p.fees0);
      const token1 = sideOf(p.token1, p.meta1, p.amount1, p.fees1);
      const price = (tick: number | null) =>
        tick === null || d0 === null || d1 === null ? null : Number(priceAtTick(tick, d0, d1).toPrecision(8));
      return {
        tokenId: p.tokenId.toString(),
        pool: p.pool,
        feeTier: p.fee,
        token0,
        token1,
        tickLower: p.tickLower,
        tickUpper: p.tickUpper,
        currentTick: p.tick,
        inRange: p.tick === null ? null : p.tick >= p.tickLower && p.tick < p.tickUpper,
        priceLower: price(p.tickLower),
        priceUpper: price(p.tickUpper),
        currentPrice: price(p.tick),
        liquidity: p.liquidity.toString(),
        valueUsd: worth([
          [token0.amount, token0.priceUsd],
          [token1.amount, token1.priceUsd],
        ]),
        feesUsd: worth([
          [token0.fees, token0.priceUsd],
          [token1.fees, token1.priceUsd],
        ]),
      };
    });
    return {
      chain: input.chain,
      address: owner,
      positionManager: manager,
      positions,
      totalPositions: read.total,
      closedPositions: read.closed,
      totalUsd: cents(positions.reduce((sum, p) => sum + (p.valueUsd ?? 0) + (p.feesUsd ?? 0), 0)),
    };
  },
});

async function readPositions(client: PublicClient, manager: Address, owner: Address) {
  const total = Number(
    await client.readContract({ address: manager, abi: positionManagerAbi, functionName: "balanceOf", args: [owner] }),
  );
  const indexes = Array.from({ length: Math.min(total, MAX_SCANNED) }, (_, i) => BigInt(i));
  const ids = await client.multicall({
    contracts: indexes.map((i) => ({
      address: manager,
      abi: positionManagerAbi,
      functionName: "tokenOfOwnerByIndex" as const,
      args: [owner, i] as const,
    })),
    allowFailure: false,
  });
  const raw = await client.multicall({
    contracts: ids.map((id) => ({
      address: manager,
      abi: positionManagerAbi,
      functionName: "positions" as const,
      args: [id] as const,
    })),
    allowFailure: false,
  });
  const factory = await client.readContract({ address: manager, abi: positionManagerAbi, functionName: "factory" });
  const all = await Promise.all(
    raw.map(async ([, , token0, token1, fee, tickLower, tickUpper, liquidity, , , owed0, owed1], i) => {
      // A static collect() as the owner reports fees accrued since the last poke too; tokensOwed alone can lag.
      const collected = await probe(
        client
          .simulateContract({
            address: manager,
            abi: positionManagerAbi,
            functionName: "collect",
            args: [{ tokenId: ids[i], recipient: owner, amount0Max: maxUint128, amount1Max: maxUint128 }],
            account: owner,
          })
          .then((r) => r.result),
        [owed0, owed1] as const,
      );
      return {
        tokenId: ids[i],
        token0: getAddress(token0),
        token1: getAddress(token1),
        fee,
        tickLower,
        tickUpper,
        liquidity,
        fees0: collected[0],
        fees1: collected[1],
      };
    }),
  );
  const open = all.filter((p) => p.liquidity > 0n || p.fees0 > 0n || p.fees1 > 0n);
  const metadata = new Map<Address, Promise<TokenMetadata>>();
  const metaOf = (token: Address) =>
    metadata.get(token) ?? metadata.set(token, readTokenMetadata(client, token)).get(token)!;
  const detailed = await Promise.all(
    open.map(async (p) => {
      const pool = await client.readContract({
        address: factory,
        abi: factoryAbi,
        functionName: "getPool",
        args: [p.token0, p.token1, p.fee],
      });
      const slot0 =
        pool === zeroAddress
          ? null
          : await probe(client.readContract({ address: pool, abi: poolAbi, functionName: "slot0" }), null);
      // Without the pool price the amounts are unknown, not zero.
      const amounts = slot0
        ? amountsForLiquidity(slot0[0], p.tickLower, p.tickUpper, p.liquidity)
        : { amount0: null, amount1: null };
      const [meta0, meta1] = await Promise.all([metaOf(p.token0), metaOf(p.token1)]);
      return {
        ...p,
        pool: pool === zeroAddress ? null : getAddress(pool),
        tick: slot0 ? slot0[1] : null,
        ...amounts,
        meta0,
        meta1,
      };
    }),
  );
  return { total, closed: all.length - open.length, open: detailed };
}
