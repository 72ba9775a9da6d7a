import { readFile } from "node:fs/promises";
import type { H3 } from "h3";
import type { PageDef } from "../endpoint.ts";
import type { Runtime } from "./container.ts";
import { escapeHtml } from "../shared.ts";
import {
  compressed,
  representation,
  representationCache,
  serveRepresentation,
  type Representation,
} from "./compression.ts";

/** Mounts the plugins' pages inside the shared layout, and the files they load. */
export function mountPages(app: H3, rt: Runtime): void {
  const { pages, assets } = rt.pages;
  const nav = navigation(rt);
  const site = { endpoints: rt.endpoints, baseUrl: rt.config.baseUrl, store: rt.store, now: rt.now };
  const rendered = representationCache();
  for (const page of pages) {
    const { body } = page;
    if (typeof body === "string") {
      const fixed = representation(layout(page, body, nav), pageHeaders);
      app.get(page.path, (event) => serveRepresentation(event.req, fixed));
      continue;
    }
    app.get(page.path, async (event) => {
      const answer = await body({ ...site, params: event.context.params ?? {} });
      if (typeof answer === "object" && "redirect" in answer) {
        return new Response(null, {
          status: 302,
          headers: { location: answer.redirect, "cache-control": "no-store", "referrer-policy": "no-referrer" },
        });
      }
      if (typeof answer === "string")
        return serveRepresentation(event.req, rendered(layout(page, answer, nav), pageHeaders));
      return compressed(event.req, answer.status, layout(page, answer.html, nav), pageHeaders);
    });
  }
  const icon = () =>
    new Response(favicon, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } });
  // Catalogs look for it with HEAD first.
  for (const path of ["/favicon.svg", "/favicon.ico"])
    for (const method of ["GET", "HEAD"] as const) app.on(method, path, icon);
  for (const asset of assets) {
    let content: Promise<Representation> | undefined;
    app.get(asset.path, async (event) => {
      content ??= readFile(asset.file).then((bytes) =>
        representation(new Uint8Array(bytes), { "content-type": asset.type, "cache-control": "public, max-age=300" }),
      );
      return serveRepresentation(event.req, await content);
    });
  }
}

/** The site's icon: the 402 status on the accent colour. */
export const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0969da"/><text x="16" y="21" font-family="system-ui,sans-serif" font-size="12" font-weight="700" fill="#fff" text-anchor="middle">402</text></svg>`;

/** The links every page shows: the catalog, the API reference, the plugins' pages, then the status page. */
export const navigation = (rt: Runtime) => [
  { path: "/", title: "Catalog" },
  { path: "/docs", title: "API reference" },
  ...rt.pages.pages.filter((p) => p.path !== "/" && !p.hidden),
  { path: "/status", title: "Status" },
];

export const pageHeaders = {
  "content-type": "text/html; charset=utf-8",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "content-security-policy":
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
};

/** One look and one navigation for every page a human sees. */
export function layout(
  page: Pick<PageDef, "path" | "title" | "head">,
  body: string,
  nav: { path: string; title: string }[],
): string {
  const links = nav
    .map((n) => `<a href="${n.path}"${n.path === page.path ? ' aria-current="page"' : ""}>${escapeHtml(n.title)}</a>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · x402 agent services</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${styles}</style>
${page.head ?? ""}
</head>
<body>
<header class="site"><a class="brand" href="/">x402 agent services</a><nav>${links}</nav></header>
<main>${body}</main>
<footer class="site">Pay per call in USDC over x402. No account, no key. <a href="/openapi.json">OpenAPI</a> · <a href="/.well-known/x402">x402</a> · <a href="/llms.txt">llms.txt</a></footer>
</body>
</html>`;
}

const styles = `
:root { --ink: #1b1f24; --muted: #5b6470; --line: #d9dee5; --bg: #f7f8fa; --card: #fff; --accent: #0969da; --good: #1a7f37; --bad: #cf222e; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
header.site { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center; padding: 12px 24px; background: var(--card); border-bottom: 1px solid var(--line); }
header.site .brand { font-weight: 700; color: var(--ink); text-decoration: none; }
header.site nav { display: flex; flex-wrap: wrap; gap: 4px 16px; }
header.site nav a { color: var(--muted); text-decoration: none; }
header.site nav a[aria-current="page"] { color: var(--accent); font-weight: 600; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; overflow-wrap: break-word; }
@media (max-width: 640px) {
  header.site, main, footer.site { padding-left: 12px; padding-right: 12px; }
  /* A table fits the screen: its cells break long words rather than widen the page. */
  :where(th, td):not(.swagger-ui *) { overflow-wrap: anywhere; }
}
footer.site { max-width: 1100px; margin: 0 auto; padding: 24px; color: var(--muted); font-size: 13px; }
a { color: var(--accent); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px; margin-bottom: 16px; }
/* The site's plain look for form controls, tables and code, never inside Swagger UI, whose own styles stay as they are. */
:where(button, select, input, textarea):not(.swagger-ui *) { font: inherit; padding: 6px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--card); }
:where(button):not(.swagger-ui *) { cursor: pointer; background: var(--accent); color: #fff; border-color: var(--accent); }
:where(button:disabled):not(.swagger-ui *) { opacity: .5; cursor: default; }
:where(table):not(.swagger-ui *) { border-collapse: collapse; width: 100%; }
:where(th, td):not(.swagger-ui *) { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); }
:where(code, pre):not(.swagger-ui *) { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
:where(pre):not(.swagger-ui *) { background: #f0f2f5; padding: 12px; border-radius: 6px; overflow: auto; }
.muted { color: var(--muted); }
.good { color: var(--good); }
.bad { color: var(--bad); }
`;
