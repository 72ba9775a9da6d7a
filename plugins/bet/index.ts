import { definePlugin } from "../../core/endpoint.ts";
import { betSettings } from "./_environments.ts";
import { betUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "bet",
  settings: betSettings,
  upstreams: betUpstreams,
});
