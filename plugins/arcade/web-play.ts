import { defineEndpoint } from "../../core/endpoint.ts";
import { tooManyRequests } from "../../core/runtime/errors.ts";
import { dicePlayExample } from "./_examples.ts";
import { play, PLAY_UPSTREAMS } from "./_play.ts";
import { PlayInput, PlayResult } from "./_schemas.ts";
import { arcadeSettings } from "./_settings.ts";

const hourMs = 3_600_000;

export default defineEndpoint({
  name: "arcade/web-play",
  method: "POST",
  path: "/arcade/api/play",
  price: "$0",
  summary: "The /arcade page's free play route for humans: the same games as arcade/play, limited per visitor",
  input: PlayInput,
  output: PlayResult,
  example: dicePlayExample,
  upstreams: PLAY_UPSTREAMS,
  settings: arcadeSettings,
  async handler(ctx) {
    const now = ctx.now().getTime();
    const hour = Math.floor(now / hourMs);
    const used = await ctx.store.increment(`arcade:web:${ctx.clientIp}:${hour}`, 1, hourMs);
    if (used > ctx.settings.webPlaysPerHour) throw tooManyRequests(Math.ceil(((hour + 1) * hourMs - now) / 1000));
    return play(ctx, ctx.input);
  },
});
