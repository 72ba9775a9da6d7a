import { defineEndpoint } from "../../core/endpoint.ts";
import { dicePlayExample } from "./_examples.ts";
import { play, PLAY_UPSTREAMS } from "./_play.ts";
import { PlayInput, PlayResult } from "./_schemas.ts";

export default defineEndpoint({
  name: "arcade/play",
  method: "POST",
  price: "$0.005",
  summary: "Play a provably fair arcade game for points: dice, blackjack, higherlower, or predict BTC funding, the next candle or Fear & Greed",
  description:
    "Points only, no money. dice, higherlower and blackjack draw from seed = SHA-256(blockHash + \":\" + salt) with the payment network's latest block, " +
    "by rejection sampling; the full fairness record comes with every finished result. funding, candle and feargreed answer `pending` and settle " +
    "against the real data (GET /v1/arcade/me). A win is 10 points, 20 from a streak of 3; the week resets Monday 00:00 UTC.",
  input: PlayInput,
  output: PlayResult,
  example: dicePlayExample,
  upstreams: PLAY_UPSTREAMS,
  handler: (ctx) => play(ctx, ctx.input),
});
