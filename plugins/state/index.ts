import { definePlugin } from "../../core/endpoint.ts";
import { watchJob } from "./_watch-job.ts";
import { stateSettings } from "./_watches.ts";
import retrieve from "./retrieve.ts";
import store from "./store.ts";
import watchStatus from "./watch-status.ts";
import watch from "./watch.ts";
import webhook from "./webhook.ts";

export default definePlugin({
  family: "state",
  endpoints: [retrieve, store, watch, watchStatus, webhook],
  jobs: [watchJob],
  settings: stateSettings,
});
