import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf } from "../../helpers/expect.ts";
import techStack from "../../../plugins/web/tech-stack.ts";

const wordpress = `<!doctype html><html><head>
<meta name="Generator" content="WordPress 6.4.2">
<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script>
<script src="https://www.googletagmanager.com/gtag/js?id=G-XYZ"></script>
<link href="https://fonts.googleapis.com/css2?family=Inter" rel="stylesheet">
</head><body><p>Hello</p></body></html>`;
const next = `<html><body><div id="__next"></div><script src="/_next/static/chunks/main-abc.js"></script>
<script id="__NEXT_DATA__" type="application/json">{}</script></body></html>`;

const site = await startTarget({
  "/wp": {
    headers: {
      server: "nginx/1.25.3",
      "x-powered-by": "PHP/8.2.1",
      "set-cookie": [
        "PHPSESSID=abc; path=/",
        "wordpress_test_cookie=WP%20Cookie; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/",
      ],
      "cf-ray": "8a1b2c3d4e5f-AMS",
    },
    body: wordpress,
  },
  "/next": { headers: { "x-vercel-id": "fra1::abc", "x-powered-by": "Next.js" }, body: next },
  "/plain": { body: "<html><body>static</body></html>" },
  "/error": { status: 500, body: "" },
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: site.port });
after(() => site.close());

const byName = (data: any) => new Map<string, any>(data.technologies.map((t: any) => [t.name, t]));

test("tech-stack: server, language, CMS, libraries and analytics with versions and evidence", async () => {
  const out = await service.call(techStack, { url: site.url("/wp") });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const found = byName(dataOf(out));
  assert.deepEqual(found.get("Nginx"), {
    name: "Nginx",
    category: "Web server",
    version: "1.25.3",
    evidence: [{ source: "header", detail: "server: nginx/1.25.3" }],
  });
  assert.equal(found.get("PHP").version, "8.2.1");
  assert.deepEqual(
    found.get("PHP").evidence.map((e: any) => e.source),
    ["header", "cookie"],
  );
  assert.equal(found.get("WordPress").version, "6.4.2");
  assert.deepEqual(
    found.get("WordPress").evidence.map((e: any) => e.source),
    ["meta", "script", "cookie", "html"],
  );
  assert.equal(found.get("jQuery").evidence[0].detail, site.url("/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"));
  assert.ok(found.has("Google Analytics"));
  assert.ok(found.has("Google Fonts"));
  assert.ok(found.has("Cloudflare"));
  assert.equal(found.has("Next.js"), false);
});

test("tech-stack: frameworks imply their libraries", async () => {
  const found = byName(dataOf(await service.call(techStack, { url: site.url("/next") })));
  assert.deepEqual(
    found.get("Next.js").evidence.map((e: any) => e.source),
    ["header", "script", "html"],
  );
  assert.deepEqual(found.get("React").evidence, [{ source: "implied", detail: "implied by Next.js" }]);
  assert.ok(found.has("Vercel"));
});

test("tech-stack: a plain page shows nothing", async () => {
  const out = await service.call(techStack, { url: site.url("/plain") });
  assert.deepEqual(dataOf(out).technologies, []);
});

test("tech-stack: a failing target is a 502", async () => {
  const out = await service.call(techStack, { url: site.url("/error") });
  assert.equal(out.status, 502);
});

test("tech-stack: bad input is a free 400 and fetches nothing", async () => {
  const before = site.hits.length;
  const res = await service.request("/v1/tech-stack?url=ftp%3A%2F%2F");
  assert.equal(res.status, 400);
  assert.equal(site.hits.length, before);
});

test("tech-stack: a private target is refused with a 400", async () => {
  const out = await service.call(techStack, { url: "http://10.0.0.1/" });
  assert.equal(out.status, 400);
});
