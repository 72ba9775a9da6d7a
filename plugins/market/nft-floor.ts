import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { COINGECKO } from "./_coingecko.ts";

const Amount = v.object({ native_currency: v.number(), usd: v.number() });
/** What the code reads of CoinGecko's NFT collection answer. */
const Nft = v.object({
  id: v.string(),
  name: v.string(),
  symbol: v.string(),
  asset_platform_id: v.nullable(v.string()),
  contract_address: v.nullable(v.string()),
  native_currency_symbol: v.string(),
  floor_price: Amount,
  market_cap: Amount,
  volume_24h: Amount,
  floor_price_24h_percentage_change: v.optional(v.object({ usd: v.number() })),
  number_of_unique_addresses: v.nullable(v.number()),
  total_supply: v.nullable(v.number()),
});

export default defineEndpoint({
  name: "nft-floor",
  method: "GET",
  price: "$0.005",
  summary: "Floor price, market cap, 24 h volume and holders of an NFT collection",
  description:
    "From CoinGecko's NFT data (/nfts/{id}; ids as on coingecko.com/en/nft, e.g. pudgy-penguins). An unknown collection is a 404.",
  input: v.object({
    collection: v.pipe(
      v.string(),
      v.maxLength(100),
      v.regex(/^[a-z0-9][a-z0-9-]*$/, "a CoinGecko NFT collection id such as pudgy-penguins"),
      v.description("CoinGecko NFT collection id"),
    ),
  }),
  output: v.object({
    id: v.string(),
    name: v.string(),
    symbol: v.string(),
    chain: v.nullable(v.string()),
    contract: v.nullable(v.string()),
    floor: v.object({ native: v.number(), currency: v.string(), usd: v.number() }),
    floorChange24hPercent: v.nullable(v.number()),
    marketCapUsd: v.number(),
    volume24hUsd: v.number(),
    holders: v.nullable(v.number()),
    totalSupply: v.nullable(v.number()),
    url: v.string(),
  }),
  example: {
    input: { collection: "pudgy-penguins" },
    output: {
      id: "pudgy-penguins",
      name: "Pudgy Penguins",
      symbol: "PPG",
      chain: "ethereum",
      contract: "0xbd3531da5cf5857e7cfaa92426877b022e612cf8",
      floor: { native: 10.69, currency: "ETH", usd: 35312.2 },
      floorChange24hPercent: -3.2,
      marketCapUsd: 313010123,
      volume24hUsd: 2012345,
      holders: 4981,
      totalSupply: 8888,
      url: "https://www.coingecko.com/en/nft/pudgy-penguins",
    },
  },
  cacheTtl: 300,
  upstreams: [COINGECKO],
  async handler({ input, upstream }) {
    const n = await upstream(COINGECKO).json(`/nfts/${input.collection}`, Nft, { notFoundAs404: true });
    if (typeof n?.floor_price?.native_currency !== "number")
      throw upstreamFailed(COINGECKO, "CoinGecko /nfts changed shape");
    return {
      id: n.id,
      name: n.name,
      symbol: n.symbol,
      chain: n.asset_platform_id,
      contract: n.contract_address,
      floor: {
        native: n.floor_price.native_currency,
        currency: n.native_currency_symbol.toUpperCase(),
        usd: n.floor_price.usd,
      },
      floorChange24hPercent: n.floor_price_24h_percentage_change?.usd ?? null,
      marketCapUsd: n.market_cap.usd,
      volume24hUsd: n.volume_24h.usd,
      holders: n.number_of_unique_addresses,
      totalSupply: n.total_supply,
      url: `https://www.coingecko.com/en/nft/${n.id}`,
    };
  },
});
