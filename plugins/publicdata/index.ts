import { definePlugin } from "../../core/endpoint.ts";
import { publicdataUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "publicdata",
  upstreams: publicdataUpstreams,
});
