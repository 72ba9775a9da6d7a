import * as v from "valibot";
import type { Address, Hex } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { commitTx, fieldError, moveCommitment, revealMovesTx, revealTx, secretCommitment, settleTx, timeoutTx } from "./_calldata.ts";
import { deployment, DUEL_CONFIG, DUEL_UPSTREAMS } from "./_chain.ts";
import { composeCreate, composeJoin } from "./_compose.ts";
import { Address as AddressSchema, DuelId, Hex32, Stake, TxSchema } from "./_schemas.ts";
import { MAX_HITS } from "./_shoe.ts";
import { duelSettings, type DuelContext } from "./_settings.ts";

const ACTIONS = ["create", "join", "reveal", "commit", "reveal-moves", "settle", "timeout", "sha"] as const;

type Input = {
  action: (typeof ACTIONS)[number];
  duelId?: number;
  commitment?: string;
  stake?: number;
  secret?: string;
  hits?: number;
  salt?: string;
  player?: string;
};

export default defineEndpoint({
  name: "duel/tx",
  method: "GET",
  path: "/duel/tx",
  price: "$0",
  summary: "Calldata for every duel step (create, join, reveal, commit, reveal-moves, settle, timeout) and the commitment hashes",
  description:
    "Each action answers the bare transaction {to, data, value} for eth_sendTransaction from the player's own wallet; settle and timeout may be sent by anyone. action=sha answers a commitment instead: keccak256(secret) for create and join, or the move commitment keccak256(abi.encodePacked(duelId, player, hits, salt)) for commit. You can compute both locally; secrets sent here are not stored.",
  raw: true,
  requires: DUEL_CONFIG,
  upstreams: DUEL_UPSTREAMS,
  settings: duelSettings,
  input: v.object({
    action: v.pipe(v.picklist(ACTIONS), v.description("The step to compose")),
    duelId: v.optional(DuelId),
    commitment: v.optional(Hex32("create and join: keccak256 of your secret; commit: your move commitment")),
    stake: v.optional(Stake),
    secret: v.optional(Hex32("reveal, and sha of a secret: your 32-byte secret")),
    hits: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_HITS), v.description("Cards you take after the first two (reveal-moves, sha of moves)"))),
    salt: v.optional(Hex32("reveal-moves and sha of moves: 32 random bytes that hide your hits until you reveal")),
    player: v.optional(AddressSchema("sha of moves: your wallet, the one that will send commit and reveal-moves")),
  }),
  output: v.union([
    TxSchema,
    v.object({ sha: Hex32("The commitment"), of: v.picklist(["secret", "moves"]) }),
  ]),
  example: {
    input: { action: "settle", duelId: 1 },
    output: { to: "0x8464135c8F25Da09e49BC8782676a84730C318bC", data: "0x8df828000000000000000000000000000000000000000000000000000000000000000001", value: "0x0" },
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
    case "sha":
      if (input.secret !== undefined && input.hits === undefined) return { sha: secretCommitment(input.secret as Hex), of: "secret" as const };
      return { sha: moveCommitment(need("duelId"), need("player") as Address, need("hits"), need("salt") as Hex), of: "moves" as const };
    case "create":
      return composeCreate(ctx, need("commitment"), need("stake"), "stake");
    case "join":
      return composeJoin(ctx, need("duelId"), need("commitment"), "commitment");
  }
  const { escrow } = deployment(ctx);
  switch (input.action) {
    case "reveal": return revealTx(escrow, need("duelId"), need("secret") as Hex);
    case "commit": return commitTx(escrow, need("duelId"), need("commitment") as Hex);
    case "reveal-moves": return revealMovesTx(escrow, need("duelId"), need("hits"), need("salt") as Hex);
    case "settle": return settleTx(escrow, need("duelId"));
    case "timeout": return timeoutTx(escrow, need("duelId"));
  }
}
