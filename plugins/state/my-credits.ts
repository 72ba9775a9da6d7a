import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { signInNote, signedInWallet } from "./_wallet.ts";

export default defineEndpoint({
  name: "state/credits",
  method: "GET",
  price: "$0",
  signIn: true,
  summary: "Your wallet's credit codes and their balances (signed in, free)",
  description: `${signInNote} Every live credit code issued to the wallet, newest first (the newest 100): a paid call's price given back (its change could not be saved, its settlement was unsettled when it answered), a batch's failed items. The code itself is listed: it is a bearer secret, spent as X-CREDIT-CODE by whoever holds it, and only the wallet it was issued to reads it here. Codes a family hands out under its own rules (an arcade prize or a voided play's refund, read with /v1/arcade/promo-code) are not listed.`,
  input: v.object({}),
  output: v.object({
    credits: v.array(
      v.object({
        code: v.pipe(v.string(), v.description("The bearer code: send it as X-CREDIT-CODE")),
        balance: v.pipe(v.string(), v.description("USDC atomic units left")),
        issuedAt: v.string(),
        expiresAt: v.string(),
        reason: v.pipe(v.string(), v.description("Why it was issued")),
      }),
    ),
  }),
  example: {
    input: {},
    output: {
      credits: [
        {
          code: "cr_Q2hhcmdlZC1ub3Qtc2VydmVkLTAx",
          balance: "1000",
          issuedAt: "2026-11-28T10:00:00.000Z",
          expiresAt: "2027-11-28T10:00:00.000Z",
          reason: "undelivered store",
        },
      ],
    },
  },
  handler: async ({ wallet, holdings }) => ({ credits: await holdings.credits(signedInWallet(wallet)) }),
});
