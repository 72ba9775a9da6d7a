import { definePlugin } from "../../core/endpoint.ts";
import { drawJob } from "./_draw-job.ts";
import { arcadeAssets, arcadePage } from "./_page.ts";
import { arcadeSettings } from "./_settings.ts";
import { settleJob } from "./_settle-job.ts";
import { arcadeUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "arcade",
  pages: [arcadePage],
  assets: arcadeAssets,
  jobs: [drawJob, settleJob],
  settings: arcadeSettings,
  upstreams: arcadeUpstreams,
});
