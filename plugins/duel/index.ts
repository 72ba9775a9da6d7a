import { definePlugin } from "../../core/endpoint.ts";
import { duelAssets, duelPage } from "./_page.ts";
import { duelDevnet, duelSettings, duelUpstreams } from "./_settings.ts";

export default definePlugin({
  family: "duel",
  pages: [duelPage],
  assets: duelAssets,
  settings: duelSettings,
  upstreams: duelUpstreams,
  devnet: duelDevnet,
});
