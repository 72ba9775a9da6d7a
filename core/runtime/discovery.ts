import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { H3 } from "h3";
import type { Runtime } from "./container.ts";
import { toLlmsTxt, toManifest, toWellKnown } from "./documents.ts";
import { toOpenApi } from "./openapi.ts";
import { agentEndpoints } from "./agent-surface.ts";
import { isFree } from "../shared.ts";
import { notFound } from "./errors.ts";
import { layout, navigation, pageHeaders } from "./pages.ts";

const swaggerDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const docsAssets: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

/** Discovery documents, each built once from the loaded endpoints on first request. */
export function mountDiscovery(app: H3, rt: Runtime) {
  const { baseUrl } = rt.config;
  const once = <T>(build: () => T) => {
    let value: T | undefined;
    return () => (value ??= build());
  };
  const openapi = once(() => JSON.stringify(toOpenApi(rt.endpoints, rt.payments, baseUrl)));
  const manifest = once(() => JSON.stringify(toManifest(rt.endpoints, rt.payments, baseUrl)));
  const wellKnown = once(() => JSON.stringify(toWellKnown(rt.endpoints, baseUrl, rt.payments.options)));
  const llms = once(() => toLlmsTxt(rt.endpoints, baseUrl, rt.payments.options));
  const json = (body: string) =>
    new Response(body, {
      headers: { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" },
    });

  app.get("/health", () => ({
    status: "ok",
    families: [...new Set(rt.endpoints.map((e) => e.family))].sort(),
    endpoints: agentEndpoints(rt.endpoints).length,
    paid: agentEndpoints(rt.endpoints).filter((e) => !isFree(e)).length,
    disabled: rt.disabled,
    payment: rt.payments.options.map(({ network, asset, payTo }) => ({ network, asset, payTo })),
  }));
  app.get("/openapi.json", () => json(openapi()));
  app.get("/x402-manifest", () => json(manifest()));
  app.get("/.well-known/x402", () => json(wellKnown()));
  app.get("/llms.txt", () => new Response(llms(), { headers: { "content-type": "text/plain; charset=utf-8" } }));
  const docsPage = layout({ path: "/docs", title: "API reference", head: docsHead }, docsBody, navigation(rt));
  app.get("/docs", () => new Response(docsPage, { headers: pageHeaders }));
  app.get("/docs/assets/:file", async (event) => {
    const file = event.context.params?.file ?? "";
    const type = docsAssets[file];
    if (!type) throw notFound();
    return new Response(new Uint8Array(await readFile(join(swaggerDir, file))), {
      headers: { "content-type": type, "cache-control": "public, max-age=86400" },
    });
  });
}

// Swagger UI inside the shared layout, whose element styles stop at .swagger-ui. One exception: the version
// badges (grey 3.75:1, green 2.2:1 under white) its links (3.1:1) and the Authorize button (2:1) are darkened to reach WCAG AA.
const docsHead = `<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>.swagger-ui .info { margin: 16px 0; } .swagger-ui .info .title small { background: #5b6470; } .swagger-ui .info .title small.version-stamp { background: #1a7f37; } .swagger-ui .info a, .swagger-ui .info .url { color: #0969da; } .swagger-ui .btn.authorize { color: #1a7f37; border-color: #1a7f37; } .swagger-ui .btn.authorize svg { fill: #1a7f37; }</style>`;

const docsBody = `<div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: "/openapi.json", dom_id: "#docs", deepLinking: true, docExpansion: "none", filter: true, tryItOutEnabled: false, validatorUrl: null,
  // Swagger renders the server choice without a label; a screen reader needs one.
  onComplete: () => document.querySelector("#docs .servers select")?.setAttribute("aria-label", "Server"),
});
</script>`;
