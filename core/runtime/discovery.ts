import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { H3 } from "h3";
import { FastResponse } from "srvx";
import type { Runtime } from "./container.ts";
import { toLlmsTxt } from "./documents.ts";
import { mcpMetaKeys } from "../rails.ts";
import { toOpenApi } from "./openapi.ts";
import { agentEndpoints } from "../shared.ts";
import { isFree } from "../shared.ts";
import { notFound } from "./errors.ts";
import { layout, navigation, pageHeaders } from "./pages.ts";
import { representation, serveRepresentation, type Bytes, type Representation } from "./compression.ts";

const swaggerDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const docsAssets: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

/** Discovery documents, the rail's own among them, each built once from the loaded endpoints on first request. */
export function mountDiscovery(app: H3, rt: Runtime) {
  const { baseUrl } = rt.config;
  const once = <T>(build: () => T) => {
    let value: T | undefined;
    return () => (value ??= build());
  };
  const jsonHeaders = { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" };
  const json = (build: () => unknown) => once(() => representation(JSON.stringify(build()), jsonHeaders));
  const openapi = json(() => toOpenApi(rt.endpoints, rt.payments.discovery, baseUrl));
  const llms = once(() =>
    representation(toLlmsTxt(rt.endpoints, baseUrl, rt.payments, mcpMetaKeys("paymentKey")), {
      "content-type": "text/plain; charset=utf-8",
    }),
  );
  const docsPage = once(() =>
    representation(
      layout({ path: "/docs", title: "API reference", head: docsHead }, docsBody, navigation(rt)),
      pageHeaders,
    ),
  );
  const assets = new Map<string, Promise<Representation>>();

  // One body, built again only when what it reports is replaced (the endpoints, what was left out, the options).
  let health: { of: readonly unknown[]; body: Bytes; headers: [string, string][] } | undefined;
  const healthAnswer = () => {
    const { endpoints, disabled, payments } = rt;
    if (health?.of[0] !== endpoints || health.of[1] !== disabled || health.of[2] !== payments.options) {
      const body = Buffer.from(JSON.stringify(healthOf(rt)));
      health = {
        of: [endpoints, disabled, payments.options],
        body,
        headers: [
          ["content-type", "application/json; charset=utf-8"],
          ["content-length", String(body.length)],
        ],
      };
    }
    return new FastResponse(health.body, { headers: health.headers });
  };

  app.get("/health", healthAnswer);
  app.get("/openapi.json", (event) => serveRepresentation(event.req, openapi()));
  for (const document of rt.payments.discovery.documents) {
    const body = json(() => document.build(rt.endpoints));
    app.get(document.path, (event) => serveRepresentation(event.req, body()));
  }
  app.get("/llms.txt", (event) => serveRepresentation(event.req, llms()));
  app.get("/docs", (event) => serveRepresentation(event.req, docsPage()));
  app.get("/docs/assets/:file", async (event) => {
    const file = event.context.params?.file ?? "";
    const type = docsAssets[file];
    if (!type) throw notFound();
    let asset = assets.get(file);
    if (!asset) {
      const headers = { "content-type": type, "cache-control": "public, max-age=86400" };
      asset = readFile(join(swaggerDir, file)).then((bytes) => representation(new Uint8Array(bytes), headers));
      assets.set(file, asset);
    }
    return serveRepresentation(event.req, await asset);
  });
}

/** What the process serves: its families, its counts, what was left unmounted and why, how it is paid. */
export const healthOf = (rt: Runtime) => ({
  status: "ok",
  families: [...new Set(rt.endpoints.map((e) => e.family))].sort(),
  endpoints: agentEndpoints(rt.endpoints).length,
  paid: agentEndpoints(rt.endpoints).filter((e) => !isFree(e)).length,
  disabled: rt.disabled,
  payment: rt.payments.options.map(({ network, asset, payTo }) => ({ network, asset, payTo })),
  // A local chain with public test keys: `npm run pay` reads it here rather than asking for RPC_URL.
  ...(rt.devnet ? { devnet: rt.devnet } : {}),
});

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
