import { definePlugin } from "../../core/endpoint.ts";
import { arcadeAssets, arcadePage } from "./_page.ts";
import { settleJob } from "./_settle-job.ts";
import leaderboard from "./leaderboard.ts";
import me from "./me.ts";
import play from "./play.ts";
import promoCode, { promoAmounts } from "./promo-code.ts";
import webPlay, { webPlaysPerHour } from "./web-play.ts";

export default definePlugin({
  family: "arcade",
  endpoints: [leaderboard, me, play, promoCode, webPlay],
  pages: [arcadePage],
  assets: arcadeAssets,
  jobs: [settleJob],
  settings: [webPlaysPerHour, promoAmounts],
});
