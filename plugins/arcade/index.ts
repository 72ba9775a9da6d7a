import { definePlugin } from "../../core/endpoint.ts";
import { drawJob } from "./_draw-job.ts";
import { arcadeAssets, arcadePage } from "./_page.ts";
import { arcadeSettings } from "./_settings.ts";
import { settleJob } from "./_settle-job.ts";
import { arcadeUpstreams } from "./_upstreams.ts";
import chain from "./chain-relay.ts";
import challenge from "./challenge.ts";
import leaderboard from "./leaderboard.ts";
import me from "./me.ts";
import move from "./move.ts";
import play from "./play.ts";
import promoCode from "./promo-code.ts";
import webPlay from "./web-play.ts";

export default definePlugin({
  family: "arcade",
  endpoints: [chain, challenge, leaderboard, me, move, play, promoCode, webPlay],
  pages: [arcadePage],
  assets: arcadeAssets,
  jobs: [drawJob, settleJob],
  settings: arcadeSettings,
  upstreams: arcadeUpstreams,
});
