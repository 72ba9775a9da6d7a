import { defineEndpoint } from "../../core/endpoint.ts";
import { tooManyRequests } from "../../core/runtime/errors.ts";
import { integerSetting } from "../../core/runtime/settings.ts";
import { dicePlayExample } from "./_examples.ts";
import { play, PLAY_UPSTREAMS } from "./_play.ts";
import { PlayInput, PlayResult } from "./_schemas.ts";

const hourMs = 3_600_000;

/** Plays per visitor (IP address) and hour on the free web route; ARCADE_WEB_PLAYS_PER_HOUR, default 120. */
export const webPlaysPerHour = (env = process.env) => integerSetting("ARCADE_WEB_PLAYS_PER_HOUR", env, 120, 1, 100_000);

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
  async handler(ctx) {
    const now = ctx.now().getTime();
    const hour = Math.floor(now / hourMs);
    const used = await ctx.store.increment(`arcade:web:${ctx.clientIp}:${hour}`, 1, hourMs);
    if (used > webPlaysPerHour()) throw tooManyRequests(Math.ceil(((hour + 1) * hourMs - now) / 1000));
    return play(ctx, ctx.input);
  },
});
