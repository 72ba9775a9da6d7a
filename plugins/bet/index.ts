import { definePlugin } from "../../core/endpoint.ts";
import odds from "./odds.ts";
import quote from "./quote.ts";
import submit from "./submit.ts";
import { betSettings } from "./_environments.ts";
import { betUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "bet",
  endpoints: [odds, quote, submit],
  settings: betSettings,
  upstreams: betUpstreams,
});
