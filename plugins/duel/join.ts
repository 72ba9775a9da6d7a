import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { DUEL_CONFIG, DUEL_UPSTREAMS } from "./_chain.ts";
import { composeJoin } from "./_compose.ts";
import { DuelId, Hex32, TxSchema } from "./_schemas.ts";
import { duelSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "duel/join",
  method: "POST",
  price: "$0.03",
  summary: "Calldata to join an open duel with the exact escrowed stake and a commitment to your secret",
  description:
    "Answers the bare transaction {to, data, value} for eth_sendTransaction from player B's own wallet; value is player A's stake. A duel that is not open (joined, settled, or past its join deadline) is a 409.",
  raw: true,
  requires: DUEL_CONFIG,
  upstreams: DUEL_UPSTREAMS,
  settings: duelSettings,
  input: v.object({
    duelId: DuelId,
    commitmentB: Hex32("keccak256 of your 32-byte secret; it must differ from player A's"),
  }),
  output: TxSchema,
  example: {
    input: { duelId: 1, commitmentB: "0x8811aabf7829558eff4f8a1f53650e8f23cad0b42f3fd2fd4db4fe83fc8c63a9" },
    output: {
      to: "0x8464135c8F25Da09e49BC8782676a84730C318bC",
      data: "0x9a478b4900000000000000000000000000000000000000000000000000000000000000018811aabf7829558eff4f8a1f53650e8f23cad0b42f3fd2fd4db4fe83fc8c63a9",
      value: "0x2386f26fc10000",
    },
  },
  handler: (ctx) => composeJoin(ctx, ctx.input.duelId, ctx.input.commitmentB, "commitmentB"),
});
