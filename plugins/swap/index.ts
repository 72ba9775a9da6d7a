import { definePlugin } from "../../core/endpoint.ts";
import { swapAssets, swapPage } from "./_page.ts";
import { swapSettings } from "./_settings.ts";
import { swapUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "swap",
  pages: [swapPage],
  assets: swapAssets,
  settings: swapSettings,
  upstreams: swapUpstreams,
});
