import { definePlugin } from "../../core/endpoint.ts";
import { shortUrlRedirect } from "./_shorturl-redirect.ts";
import { webSettings } from "./_settings.ts";
import { webUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "web",
  pages: [shortUrlRedirect],
  settings: webSettings,
  upstreams: webUpstreams,
});
