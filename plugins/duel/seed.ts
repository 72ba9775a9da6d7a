import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { PHASES } from "./_abi.ts";
import { DUEL_CONFIG, DUEL_UPSTREAMS, readDuel, ZERO_WORD } from "./_chain.ts";
import { DuelId, Hex32 } from "./_schemas.ts";
import { duelSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "duel/seed",
  method: "GET",
  path: "/duel/seed",
  price: "$0",
  summary: "A duel's shared seed, keccak256(secretA, secretB), and the revealed secrets it comes from",
  description:
    "The seed is null until both players have revealed their secrets. Pass it to /duel/shoe to see both sides' cards.",
  requires: DUEL_CONFIG,
  upstreams: DUEL_UPSTREAMS,
  settings: duelSettings,
  input: v.object({ duelId: DuelId }),
  output: v.object({
    duelId: v.number(),
    phase: v.picklist(PHASES),
    seed: v.nullable(Hex32("keccak256(abi.encodePacked(secretA, secretB))")),
    secrets: v.object({
      a: v.nullable(Hex32("Player A's revealed secret")),
      b: v.nullable(Hex32("Player B's revealed secret")),
    }),
  }),
  example: {
    input: { duelId: 1 },
    output: {
      duelId: 1,
      phase: "commit-moves",
      seed: "0x71d8979cbfae9b197a4fbcc7d387b1fae9560e2f284d30b4e90c80f6bc074f57",
      secrets: {
        a: "0x5fe7f977e71dba2ea1a68e21057beebb9be2ac30c6410aa38d4f3fbe41dcffd2",
        b: "0xf2ee15ea639b73fa3db9b34a245bdfa015c260c598b211bf05a1ecc4b3e3b4f2",
      },
    },
  },
  async handler(ctx) {
    const { input } = ctx;
    const { duel } = await readDuel(ctx, input.duelId);
    const revealed = (side: 0 | 1) => (duel.seed || duel.secrets[side] !== ZERO_WORD ? duel.secrets[side] : null);
    return { duelId: duel.id, phase: duel.phase, seed: duel.seed, secrets: { a: revealed(0), b: revealed(1) } };
  },
});
