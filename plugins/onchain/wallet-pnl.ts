import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { blockscoutOf, blockscoutUpstreams } from "./_blockscout.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { llamaPrefixOf, pricedChainField, readWalletPnl } from "./_pnl.ts";

const usdField = (what: string) => v.pipe(v.number(), v.description(`${what}, USD`));

const tokenPnlSchema = v.object({
  token: v.string(),
  symbol: v.nullable(v.string()),
  name: v.nullable(v.string()),
  transfersIn: v.number(),
  transfersOut: v.number(),
  received: v.pipe(v.string(), v.description("Whole tokens received in the transfers read")),
  sent: v.pipe(v.string(), v.description("Whole tokens sent in the transfers read")),
  held: v.pipe(v.string(), v.description("Received and not yet sent (FIFO lots still open)")),
  costBasisUsd: usdField("What the open lots cost"),
  realizedUsd: usdField("Sale value minus FIFO cost of what was sent"),
  unrealizedUsd: usdField("Open lots at today's price minus their cost"),
  totalUsd: usdField("Realized plus unrealized"),
  priceUsd: v.pipe(v.nullable(v.number()), v.description("DefiLlama's current price")),
  complete: v.pipe(v.boolean(), v.description("false when a gap below leaves part of this token out")),
  gaps: v.array(v.string()),
});

const pnlTotalsSchema = {
  transfersRead: v.number(),
  from: v.pipe(v.nullable(v.string()), v.description("Oldest transfer read, ISO 8601")),
  to: v.pipe(v.nullable(v.string()), v.description("Newest transfer read, ISO 8601")),
  realizedUsd: v.number(),
  unrealizedUsd: v.number(),
  totalUsd: v.number(),
  winRate: v.pipe(v.nullable(v.number()), v.description("Share of tokens with a non-zero PnL that made money (0-1)")),
};

export default defineEndpoint({
  name: "wallet-pnl",
  method: "GET",
  price: "$0.02",
  summary: "Realized and unrealized profit and loss of a wallet per token (FIFO cost basis), totals and win rate",
  description:
    "Reads the wallet's last `transfers` ERC-20 transfers from the chain's Blockscout index and prices each at its time with DefiLlama's historical prices (one batch request), today's value with its current prices. Every token received opens a lot at its USD value when received (a buy, an airdrop or a deposit alike); every token sent closes the oldest lots first (FIFO) and realizes sale value minus cost. Native-coin and NFT transfers are not read. What the window cannot see is listed per token in `gaps` (tokens sent that were received before the window or bridged in, transfers DefiLlama cannot price, e.g. spam tokens) and left out of the sums rather than guessed. Tokens sorted by total PnL, best first.",
  input: v.object({
    address: addressField("Wallet address"),
    chain: pricedChainField,
    transfers: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(500),
        v.description("How many of the latest token transfers to read (1-500)"),
      ),
      100,
    ),
  }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    ...pnlTotalsSchema,
    tokens: v.array(tokenPnlSchema),
    source: v.string(),
  }),
  example: {
    input: { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", chain: "ethereum", transfers: 2 },
    output: {
      chain: "ethereum",
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      transfersRead: 2,
      from: "2025-01-10T09:00:11.000Z",
      to: "2025-02-03T14:20:47.000Z",
      realizedUsd: 61.5,
      unrealizedUsd: 0,
      totalUsd: 61.5,
      winRate: 1,
      tokens: [
        {
          token: "0x6982508145454Ce325dDbE47a25d4ec3d2311933",
          symbol: "PEPE",
          name: "Pepe",
          transfersIn: 1,
          transfersOut: 1,
          received: "10000000",
          sent: "10000000",
          held: "0",
          costBasisUsd: 0,
          realizedUsd: 61.5,
          unrealizedUsd: 0,
          totalUsd: 61.5,
          priceUsd: 0.00000977,
          complete: true,
          gaps: [],
        },
      ],
      source: "https://eth.blockscout.com/address/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045?tab=token_transfers",
    },
  },
  cacheTtl: 600,
  upstreams: [...blockscoutUpstreams, "defillama-coins"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const api = upstream(blockscoutOf(input.chain));
    const pnl = await readWalletPnl(
      api,
      upstream("defillama-coins"),
      llamaPrefixOf(input.chain),
      address,
      input.transfers,
    );
    return {
      chain: input.chain,
      address,
      ...pnl,
      source: `${new URL(api.url).origin}/address/${address}?tab=token_transfers`,
    };
  },
});
