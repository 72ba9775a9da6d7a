import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { DUEL_CONFIG, DUEL_UPSTREAMS } from "./_chain.ts";
import { composeCreate } from "./_compose.ts";
import { Hex32, Stake, TxSchema } from "./_schemas.ts";
import { duelSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "duel/create",
  method: "POST",
  price: "$0.05",
  summary: "Calldata to open a duel: stake ETH into the escrow with a commitment to your secret",
  description:
    "Answers the bare transaction {to, data, value} for eth_sendTransaction from player A's own wallet. The duel id is in the Created event of the receipt, and on /duel/feed. Keep the secret: you reveal it after someone joins.",
  raw: true,
  requires: DUEL_CONFIG,
  upstreams: DUEL_UPSTREAMS,
  settings: duelSettings,
  input: v.object({
    commitmentA: Hex32("keccak256 of your 32-byte secret (GET /duel/tx?action=sha&secret=... computes it)"),
    stake: Stake,
  }),
  output: TxSchema,
  example: {
    input: { commitmentA: "0xd0555453bba9ca5ab80f541730ee9e8dadf24bb50587cdfcfb5ebd5508fac14b", stake: 0.01 },
    output: {
      to: "0x8464135c8F25Da09e49BC8782676a84730C318bC",
      data: "0x7368a8ced0555453bba9ca5ab80f541730ee9e8dadf24bb50587cdfcfb5ebd5508fac14b",
      value: "0x2386f26fc10000",
    },
  },
  handler: (ctx) => composeCreate(ctx, ctx.input.commitmentA, ctx.input.stake, "stake"),
});
