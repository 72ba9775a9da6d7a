import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { signInNote, signedInWallet } from "./_wallet.ts";

const amount = (what: string) => v.pipe(v.string(), v.description(`${what}, in the token's atomic units`));

export default defineEndpoint({
  name: "state/channels",
  method: "GET",
  price: "$0",
  signIn: true,
  summary: "Your wallet's voucher channels: balance, charged, claimed, withdrawal (signed in, free)",
  description: `${signInNote} Every batch-settlement channel the wallet pays from, as its payer or its payer's authorizer, that a deposit here opened or topped up (the newest 100), with the state the service holds: \`balance\` deposited (as last read from the chain), \`charged\` by its vouchers in all, \`claimed\` of that on chain, and a withdrawal the payer requested (the channel then takes no voucher). Empty where the service takes no vouchers.`,
  input: v.object({}),
  output: v.object({
    channels: v.array(
      v.object({
        network: v.string(),
        channelId: v.string(),
        asset: v.pipe(v.string(), v.description("The token the channel holds")),
        payer: v.string(),
        payerAuthorizer: v.string(),
        receiver: v.string(),
        balance: amount("Deposited and not withdrawn"),
        charged: amount("What its vouchers were charged in all"),
        claimed: amount("What of that was claimed on chain"),
        withdrawDelay: v.pipe(v.number(), v.description("Seconds from a withdrawal's request to its finish")),
        withdrawal: v.nullable(v.object({ requestedAt: v.string(), finishableAt: v.string() })),
      }),
    ),
  }),
  example: {
    input: {},
    output: {
      channels: [
        {
          network: "eip155:8453",
          channelId: "0x5b2e6f0c4d8a1e3f7b9c2d4e6f8a0b1c3d5e7f9a1b2c3d4e5f6a7b8c9d0e1f2a",
          asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
          payer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
          payerAuthorizer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
          receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
          balance: "1000000",
          charged: "3000",
          claimed: "2000",
          withdrawDelay: 86400,
          withdrawal: null,
        },
      ],
    },
  },
  handler: async ({ wallet, holdings }) => ({ channels: await holdings.channels(signedInWallet(wallet)) }),
});
