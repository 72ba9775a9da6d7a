import { definePlugin } from "../../core/endpoint.ts";
import create from "./create.ts";
import feed from "./feed.ts";
import join from "./join.ts";
import quote from "./quote.ts";
import seed from "./seed.ts";
import shoe from "./shoe.ts";
import state from "./state.ts";
import tx from "./tx.ts";
import { duelAssets, duelPage } from "./_page.ts";
import { duelDevnet, duelSettings, duelUpstreams } from "./_settings.ts";

export default definePlugin({
  family: "duel",
  endpoints: [create, feed, join, quote, seed, shoe, state, tx],
  pages: [duelPage],
  assets: duelAssets,
  settings: duelSettings,
  upstreams: duelUpstreams,
  devnet: duelDevnet,
});
