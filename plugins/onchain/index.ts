import { definePlugin } from "../../core/endpoint.ts";

import { onchainUpstreams } from "./_upstreams.ts";
export default definePlugin({
  family: "onchain",
  upstreams: onchainUpstreams,
});
