import { definePlugin } from "../../core/endpoint.ts";
import { watchJob } from "./_watch-job.ts";
import { stateSettings } from "./_watches.ts";

export default definePlugin({
  family: "state",
  jobs: [watchJob],
  settings: stateSettings,
});
