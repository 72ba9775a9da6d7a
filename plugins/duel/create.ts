import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { DUEL_CONFIG, DUEL_UPSTREAMS } from "./_chain.ts";
import { composeCreate } from "./_compose.ts";
import { Hex32, RakeBps, Stake, TxSchema } from "./_schemas.ts";
import { duelSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "duel/create",
  method: "POST",
  price: "$0.05",
  summary:
    "Calldata to open a duel: stake ETH into the escrow with a commitment to your secret and the most rake you accept",
  description:
    "Answers the bare transaction {to, data, value} for eth_sendTransaction from player A's own wallet. The duel id is in the Created event of the receipt, and on /duel/feed. " +
    "Compute the commitment on your own machine, keccak256 of 32 random bytes (README: Duels), and keep the secret: you reveal it on-chain after someone joins; it is never sent to us. " +
    "Until someone joins, cancel takes the whole stake back (GET /duel/tx?action=cancel).",
  raw: true,
  requires: DUEL_CONFIG,
  upstreams: DUEL_UPSTREAMS,
  settings: duelSettings,
  input: v.object({
    commitmentA: Hex32("keccak256 of your 32-byte secret, computed on your machine"),
    stake: Stake,
    maxRakeBps: v.optional(
      RakeBps(
        "The most rake the duel accepts, in basis points of the pot; defaults to the escrow's rake now, so a raise before your transaction lands makes it revert",
      ),
    ),
  }),
  output: TxSchema,
  example: {
    input: {
      commitmentA: "0xd0555453bba9ca5ab80f541730ee9e8dadf24bb50587cdfcfb5ebd5508fac14b",
      stake: 0.01,
      maxRakeBps: 300,
    },
    output: {
      to: "0x8464135c8F25Da09e49BC8782676a84730C318bC",
      data: "0xbc99e87cd0555453bba9ca5ab80f541730ee9e8dadf24bb50587cdfcfb5ebd5508fac14b000000000000000000000000000000000000000000000000000000000000012c",
      value: "0x2386f26fc10000",
    },
  },
  handler: (ctx) => composeCreate(ctx, ctx.input.commitmentA, ctx.input.stake, "stake", ctx.input.maxRakeBps),
});
