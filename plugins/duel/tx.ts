import * as v from "valibot";
import type { Hex } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import {
  cancelTx,
  commitTx,
  fieldError,
  revealMovesTemplate,
  revealTemplate,
  settleTx,
  timeoutTx,
} from "./_calldata.ts";
import { deployment, DUEL_CONFIG, DUEL_UPSTREAMS } from "./_chain.ts";
import { composeCreate, composeJoin } from "./_compose.ts";
import { DuelId, Hex32, RakeBps, Stake, TxSchema, TxTemplateSchema } from "./_schemas.ts";
import { duelSettings, type DuelContext } from "./_settings.ts";

const ACTIONS = ["create", "join", "cancel", "reveal", "commit", "reveal-moves", "settle", "timeout"] as const;

type Input = {
  action: (typeof ACTIONS)[number];
  duelId?: number;
  commitment?: string;
  stake?: number;
  maxRakeBps?: number;
};

export default defineEndpoint({
  name: "duel/tx",
  method: "GET",
  path: "/duel/tx",
  price: "$0",
  summary:
    "Calldata for every duel step (create, join, cancel, commit, settle, timeout), and the template of the two steps that carry your secrets (reveal, reveal-moves)",
  description:
    "Each action answers the bare transaction {to, data, value} for eth_sendTransaction from the player's own wallet; settle and timeout may be sent by anyone, " +
    "cancel only by player A before anyone joins. No secret is ever sent here: commitments are computed on your machine (README: Duels), and reveal and " +
    "reveal-moves answer {to, value, dataPrefix, append}: send dataPrefix followed by the listed 32-byte words, computed locally.",
  raw: true,
  requires: DUEL_CONFIG,
  upstreams: DUEL_UPSTREAMS,
  settings: duelSettings,
  input: v.object({
    action: v.pipe(v.picklist(ACTIONS), v.description("The step to compose")),
    duelId: v.optional(DuelId),
    commitment: v.optional(
      Hex32("create and join: keccak256 of your secret; commit: your move commitment, both computed on your machine"),
    ),
    stake: v.optional(Stake),
    maxRakeBps: v.optional(RakeBps("create: the most rake you accept (defaults to the rake now)")),
  }),
  output: v.union([TxSchema, TxTemplateSchema]),
  example: {
    input: { action: "settle", duelId: 1 },
    output: {
      to: "0x8464135c8F25Da09e49BC8782676a84730C318bC",
      data: "0x8df828000000000000000000000000000000000000000000000000000000000000000001",
      value: "0x0",
    },
  },
  handler: (ctx) => compose(ctx, ctx.input),
});

function compose(ctx: DuelContext, input: Input) {
  const need = <K extends keyof Input>(field: K): NonNullable<Input[K]> => {
    const value = input[field];
    if (value === undefined) throw fieldError(field, `is required for action=${input.action}`);
    return value as NonNullable<Input[K]>;
  };
  switch (input.action) {
    case "create":
      return composeCreate(ctx, need("commitment"), need("stake"), "stake", input.maxRakeBps);
    case "join":
      return composeJoin(ctx, need("duelId"), need("commitment"), "commitment");
  }
  const { escrow } = deployment(ctx);
  switch (input.action) {
    case "cancel":
      return cancelTx(escrow, need("duelId"));
    case "reveal":
      return revealTemplate(escrow, need("duelId"));
    case "commit":
      return commitTx(escrow, need("duelId"), need("commitment") as Hex);
    case "reveal-moves":
      return revealMovesTemplate(escrow, need("duelId"));
    case "settle":
      return settleTx(escrow, need("duelId"));
    case "timeout":
      return timeoutTx(escrow, need("duelId"));
  }
}
