import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { chainField, chainInfo } from "../_shared/chains.ts";
import { formatAmount, readTokenMetadata } from "./_erc20.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";
import { cents, chainPrices } from "./_prices.ts";

const nullable = <T extends v.GenericSchema>(schema: T, what: string) =>
  v.pipe(v.nullable(schema), v.description(what));

export default defineEndpoint({
  name: "token-info",
  method: "GET",
  price: "$0.005",
  mcp: true,
  summary: "ERC-20 token facts from the chain (name, symbol, decimals, supply) with its USD price and market cap",
  description:
    "Metadata is read from the token contract through the chain's node (bytes32 names such as MKR's are decoded). The USD price is DefiLlama's current price; null when DefiLlama does not price the token. An address without code is a 404.",
  input: v.object({
    address: addressField("Token contract address"),
    chain: chainField(),
  }),
  output: v.object({
    chain: v.string(),
    address: v.pipe(v.string(), v.description("Checksummed")),
    name: nullable(v.string(), "null when the contract has no name()"),
    symbol: nullable(v.string(), "null when the contract has no symbol()"),
    decimals: nullable(v.number(), "null when the contract has no decimals()"),
    totalSupply: nullable(v.string(), "Atomic units, decimal string"),
    totalSupplyFormatted: nullable(v.string(), "totalSupply / 10^decimals"),
    priceUsd: nullable(v.number(), "DefiLlama's current price"),
    priceConfidence: nullable(v.number(), "DefiLlama's confidence in the price, 0-1"),
    marketCapUsd: nullable(v.number(), "priceUsd x total supply (fully diluted)"),
  }),
  example: {
    input: { address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      name: "USD Coin",
      symbol: "USDC",
      decimals: 6,
      totalSupply: "43829416252631047",
      totalSupplyFormatted: "43829416252.631047",
      priceUsd: 0.999838,
      priceConfidence: 0.99,
      marketCapUsd: 43822315891.2,
    },
  },
  cacheTtl: 60,
  upstreams: [...NODES, "defillama-coins"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const chain = chainInfo(input.chain);
    const metadata = await readNode(upstream, input.chain, async (client) => {
      const code = await client.getCode({ address });
      if (!code || code === "0x") throw notFound(`no contract at ${address} on ${input.chain}`);
      return readTokenMetadata(client, address);
    });
    const price = (await chainPrices(upstream("defillama-coins"), chain, [address])).token(address);
    const supply = formatAmount(metadata.totalSupply ?? 0n, metadata.decimals);
    return {
      chain: input.chain,
      address,
      ...metadata,
      totalSupplyFormatted: metadata.totalSupply === null ? null : supply,
      priceUsd: price?.price ?? null,
      priceConfidence: price?.confidence ?? null,
      marketCapUsd: price && supply !== null ? cents(price.price * Number(supply)) : null,
    };
  },
});
