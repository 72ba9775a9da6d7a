import { definePlugin } from "../../core/endpoint.ts";
import { drawJob } from "./_draw-job.ts";
import { arcadeAssets, arcadePage } from "./_page.ts";
import { powWork } from "./_pow.ts";
import { settleJob } from "./_settle-job.ts";
import chain from "./chain-relay.ts";
import challenge from "./challenge.ts";
import leaderboard from "./leaderboard.ts";
import me from "./me.ts";
import move from "./move.ts";
import play from "./play.ts";
import promoCode, { promoAmounts } from "./promo-code.ts";
import webPlay, { webPlaysPerHour } from "./web-play.ts";

export default definePlugin({
  family: "arcade",
  endpoints: [chain, challenge, leaderboard, me, move, play, promoCode, webPlay],
  pages: [arcadePage],
  assets: arcadeAssets,
  jobs: [drawJob, settleJob],
  settings: [webPlaysPerHour, promoAmounts, powWork],
});
