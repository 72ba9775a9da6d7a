import { defineEndpoint } from "../../core/endpoint.ts";
import { dicePlayExample } from "./_examples.ts";
import { play, PLAY_UPSTREAMS } from "./_play.ts";
import { PlayInput, PlayResult } from "./_schemas.ts";
import { arcadeSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "arcade/play",
  method: "POST",
  price: "$0.005",
  summary:
    "Play a provably fair arcade game for points: dice, blackjack, higherlower, or predict BTC funding, the next candle or Fear & Greed",
  description:
    'Points only, no money. The answer accepts the play (status pending). dice, higherlower and blackjack draw from seed = SHA-256(blockHash + ":" + salt) ' +
    "where the block is the first one the payment network mines after the play is recorded, so neither you nor we know it when the salt is chosen; " +
    "GET /v1/arcade/me shows the result a block later, with a fairness record to check against the chain (`npm run verify-play`). One fee covers a whole " +
    "blackjack hand: hit and stand are POST /v1/arcade/move, free; higherlower without a choice shows the coin first and takes the choice there. " +
    "funding, candle and feargreed settle against the real data. A play not decided by its deadline is void and its fee credited back. " +
    "A win is 10 points, 20 from a streak of 3; the week resets Monday 00:00 UTC; the promo codes rank on paid plays.",
  input: PlayInput,
  output: PlayResult,
  example: dicePlayExample,
  upstreams: PLAY_UPSTREAMS,
  settings: arcadeSettings,
  handler: (ctx) => play(ctx, ctx.input, { usd: "0.005", paid: true }),
});
