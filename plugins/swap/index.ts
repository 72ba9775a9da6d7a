import { definePlugin } from "../../core/endpoint.ts";
import memecoin from "./memecoin.ts";
import swap from "./swap.ts";
import swapCompare from "./swap-compare.ts";
import tradeSolana from "./trade-solana.ts";
import widgetQuote from "./widget-quote.ts";
import { swapAssets, swapPage } from "./_page.ts";
import { swapSettings } from "./_settings.ts";
import { swapUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "swap",
  endpoints: [memecoin, swap, swapCompare, tradeSolana, widgetQuote],
  pages: [swapPage],
  assets: swapAssets,
  settings: swapSettings,
  upstreams: swapUpstreams,
});
