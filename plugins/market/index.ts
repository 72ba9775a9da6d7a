import { definePlugin } from "../../core/endpoint.ts";
import { marketUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "market",
  upstreams: marketUpstreams,
});
