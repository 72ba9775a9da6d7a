import { definePlugin } from "../../core/endpoint.ts";
import { complianceSettings } from "./_settings.ts";
import { complianceUpstreams } from "./_upstreams.ts";
import { refreshAll, refreshEveryMs, sanctionsUpstreams } from "./_sanctions-lists.ts";
import fraudScore from "./fraud-score.ts";
import gleif from "./gleif.ts";
import sanctions from "./sanctions.ts";
import vatCheck from "./vat-check.ts";
import walletRisk from "./wallet-risk.ts";

export default definePlugin({
  family: "compliance",
  endpoints: [fraudScore, gleif, sanctions, vatCheck, walletRisk],
  jobs: [
    { name: "compliance-sanctions-lists", everyMs: refreshEveryMs, upstreams: sanctionsUpstreams, run: refreshAll },
  ],
  settings: complianceSettings,
  upstreams: complianceUpstreams,
});
