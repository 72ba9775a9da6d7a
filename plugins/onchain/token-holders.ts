import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound, ServiceError } from "../../core/runtime/errors.ts";
import {
  BlockscoutAddress,
  blockscoutChainField,
  blockscoutOf,
  BlockscoutToken,
  blockscoutUpstreams,
  Digits,
  labelOf,
  shareOf,
} from "./_blockscout.ts";
import { formatAmount } from "./_erc20.ts";
import { addressField, checksummed, limitField } from "../_shared/onchain-inputs.ts";

/** What the code reads of Blockscout's first page of holders. */
const HoldersPage = v.object({ items: v.array(v.object({ address: BlockscoutAddress, value: Digits })) });

export default defineEndpoint({
  name: "token-holders",
  method: "GET",
  price: "$0.01",
  summary: "Largest holders of a token with balances, share of supply, contract flags and labels; total holder count",
  description:
    "From the chain's Blockscout index (a node cannot list holders). Shares are fractions of the total supply (0.08 = 8%). `topShare` sums the listed holders, the concentration figure rug checks use. Up to 50 holders (Blockscout's first page). A token Blockscout does not know is a 404.",
  input: v.object({
    address: addressField("Token contract address"),
    chain: blockscoutChainField,
    limit: limitField(20, 50, "Most holders to return"),
  }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    name: v.nullable(v.string()),
    symbol: v.nullable(v.string()),
    type: v.pipe(v.string(), v.description("ERC-20, ERC-721, ERC-1155...")),
    decimals: v.nullable(v.number()),
    totalSupply: v.pipe(v.nullable(v.string()), v.description("Atomic units")),
    holderCount: v.nullable(v.number()),
    holders: v.array(
      v.object({
        rank: v.number(),
        address: v.string(),
        balance: v.pipe(v.string(), v.description("Atomic units")),
        balanceFormatted: v.nullable(v.string()),
        share: v.pipe(v.nullable(v.number()), v.description("Fraction of the total supply")),
        isContract: v.boolean(),
        label: v.pipe(v.nullable(v.string()), v.description("Blockscout's public tag, contract name or ENS name")),
      }),
    ),
    topShare: v.pipe(v.nullable(v.number()), v.description("Share of the supply the listed holders hold together")),
    source: v.string(),
  }),
  example: {
    input: { address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933", chain: "ethereum", limit: 1 },
    output: {
      chain: "ethereum",
      address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933",
      name: "Pepe",
      symbol: "PEPE",
      type: "ERC-20",
      decimals: 18,
      totalSupply: "420689899653542566790164883405126",
      holderCount: 502118,
      holders: [
        {
          rank: 1,
          address: "0xF977814e90dA44bFA03b6295A0616a897441aceC",
          balance: "34120135408541234000000000000000",
          balanceFormatted: "34120135408541.234",
          share: 0.081105,
          isContract: false,
          label: "Binance 8",
        },
      ],
      topShare: 0.081105,
      source: "https://eth.blockscout.com/token/0x6982508145454Ce325dDbE47a25d4ec3d2311933?tab=holders",
    },
  },
  cacheTtl: 900,
  upstreams: blockscoutUpstreams,
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const api = upstream(blockscoutOf(input.chain));
    const [token, page] = await Promise.all([
      api.json(`/api/v2/tokens/${address}`, BlockscoutToken, { notFoundAs404: true }),
      api.json(`/api/v2/tokens/${address}/holders`, HoldersPage, { notFoundAs404: true }),
    ]).catch((error: unknown) => {
      if (error instanceof ServiceError && error.status === 404)
        throw notFound(`Blockscout knows no token at ${address} on ${input.chain}`);
      throw error;
    });
    const decimals = token.decimals === null || token.decimals === undefined ? null : Number(token.decimals);
    const holders = page.items.slice(0, input.limit).map((item, i) => ({
      rank: i + 1,
      address: checksummed(item.address.hash),
      balance: item.value,
      balanceFormatted: formatAmount(item.value, decimals),
      share: shareOf(item.value, token.total_supply),
      isContract: Boolean(item.address.is_contract),
      label: labelOf(item.address),
    }));
    const count = token.holders_count ?? token.holders;
    const listed = holders.reduce((sum, h) => sum + BigInt(h.balance), 0n);
    return {
      chain: input.chain,
      address,
      name: token.name,
      symbol: token.symbol,
      type: token.type,
      decimals,
      totalSupply: token.total_supply,
      holderCount: count === null || count === undefined ? null : Number(count),
      holders,
      topShare: shareOf(String(listed), token.total_supply),
      source: `${new URL(api.url).origin}/token/${address}?tab=holders`,
    };
  },
});
