import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { BaseUnits } from "./_schemas.ts";
import { jupiterTrade, SolanaKey, SolanaTradeOutput, TokenCard, tokenCards } from "./_jupiter.ts";
import { tradeSolanaExample } from "./_examples.ts";
import { swapSettings } from "./_settings.ts";

const solanaDisclaimer =
  "The transaction is unsigned: the user's wallet signs and sends it before lastValidBlockHeight. The service never holds keys or funds. Quotes move with the market.";

export default defineEndpoint({
  name: "trade-solana",
  method: "GET",
  price: "$0.03",
  summary: "Best Solana swap route through Jupiter, as an unsigned versioned transaction for the user to sign",
  description:
    "Quotes the route through Jupiter's Swap API and builds the transaction for `user`. feeBps (default 100) is Jupiter's platform fee, " +
    "taken only when the service holds a fee account for one of the two mints. enrich=1 adds token cards from Jupiter's Tokens API.",
  input: v.object({
    user: v.pipe(SolanaKey, v.description("Solana public key that signs the transaction")),
    inputMint: v.pipe(SolanaKey, v.description("Mint to sell (So11111111111111111111111111111111111111112 is SOL)")),
    outputMint: v.pipe(SolanaKey, v.description("Mint to buy")),
    amount: v.pipe(BaseUnits, v.description("Amount of inputMint in base units")),
    feeBps: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(300),
        v.description("Platform fee in basis points, 0-300"),
      ),
      100,
    ),
    slippageBps: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(3000),
        v.description("Slippage tolerance in basis points, 0-3000"),
      ),
      50,
    ),
    enrich: v.optional(v.pipe(v.boolean(), v.description("1 adds a token card for both mints")), false),
  }),
  output: v.object({ ...SolanaTradeOutput, tokens: v.optional(v.array(TokenCard)), disclaimer: v.string() }),
  example: tradeSolanaExample,
  upstreams: ["jupiter"],
  settings: swapSettings,
  async handler({ input, upstream, settings }) {
    const api = upstream("jupiter");
    if (input.inputMint === input.outputMint) {
      throw badRequest("Invalid input for trade-solana", {
        issues: [{ field: "outputMint", message: "must differ from inputMint" }],
      });
    }
    const [trade, tokens] = await Promise.all([
      jupiterTrade(api, input, settings.solanaFeeAccounts),
      input.enrich ? tokenCards(api, [input.inputMint, input.outputMint]) : undefined,
    ]);
    return { ...trade, ...(tokens ? { tokens } : {}), disclaimer: solanaDisclaimer };
  },
});
