import { definePlugin } from "../../core/endpoint.ts";
import { arcadeAssets, arcadePage } from "./_page.ts";
import { arcadeSettings } from "./_settings.ts";
import { settleJob } from "./_settle-job.ts";
import { arcadeUpstreams } from "./_upstreams.ts";
import leaderboard from "./leaderboard.ts";
import me from "./me.ts";
import play from "./play.ts";
import promoCode from "./promo-code.ts";
import webPlay from "./web-play.ts";

export default definePlugin({
  family: "arcade",
  endpoints: [leaderboard, me, play, promoCode, webPlay],
  pages: [arcadePage],
  assets: arcadeAssets,
  jobs: [settleJob],
  settings: arcadeSettings,
  upstreams: arcadeUpstreams,
});
