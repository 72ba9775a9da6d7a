import { definePlugin } from "../../core/endpoint.ts";
import { complianceSettings } from "./_settings.ts";
import { complianceUpstreams } from "./_upstreams.ts";
import { refreshAll, refreshEveryMs, sanctionsUpstreams } from "./_sanctions-lists.ts";

export default definePlugin({
  family: "compliance",
  jobs: [
    { name: "compliance-sanctions-lists", everyMs: refreshEveryMs, upstreams: sanctionsUpstreams, run: refreshAll },
  ],
  settings: complianceSettings,
  upstreams: complianceUpstreams,
});
