import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { tooManyRequests } from "../../core/runtime/errors.ts";
import { dicePlayExample } from "./_examples.ts";
import { play, PLAY_UPSTREAMS } from "./_play.ts";
import { spendProof } from "./_pow.ts";
import { PlayInput, PlayResult } from "./_schemas.ts";
import { arcadeSettings } from "./_settings.ts";

const hourMs = 3_600_000;

export default defineEndpoint({
  name: "arcade/web-play",
  method: "POST",
  path: "/arcade/api/play",
  price: "$0",
  summary:
    "The /arcade page's free play route for humans: the same games as arcade/play, one proof of work per play, limited per visitor; free plays never count for promo codes",
  input: v.object({
    ...PlayInput.entries,
    altcha: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(8_000),
        v.description("The solved ALTCHA payload (base64) of a challenge from GET /arcade/api/challenge"),
      ),
    ),
  }),
  output: PlayResult,
  example: dicePlayExample,
  upstreams: PLAY_UPSTREAMS,
  settings: arcadeSettings,
  async handler(ctx) {
    const now = ctx.now().getTime();
    const hour = Math.floor(now / hourMs);
    const used = await ctx.store.increment(`arcade:web:${ctx.clientIp}:${hour}`, 1, hourMs);
    if (used > ctx.settings.webPlaysPerHour) throw tooManyRequests(Math.ceil(((hour + 1) * hourMs - now) / 1000));
    await spendProof(ctx, ctx.input.altcha);
    const { altcha: _, ...input } = ctx.input;
    return play(ctx, input, { usd: "0", paid: false });
  },
});
