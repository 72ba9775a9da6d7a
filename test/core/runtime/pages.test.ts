import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { serve } from "h3";
import { startTestService } from "../../helpers/service.ts";
import { launchChromium, openPage } from "../../helpers/browser.ts";

// The pages as a phone shows them (390 px wide), checked by axe-core, the engine behind Lighthouse's accessibility audit.
const axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const service = await startTestService();
const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
await server.ready();
const origin = server.url!.replace(/\/$/, "");
const browser = await launchChromium();
after(async () => {
  await browser.close();
  await server.close(true);
  await service.close();
});

const pages = ["/", "/docs", "/arcade", "/swap", "/reviews"];

for (const path of pages) {
  test(`page ${path}: no sideways scroll at 390 px and no serious or critical axe-core violation`, async () => {
    const page = await openPage(browser, { viewport: { width: 390, height: 844 } });
    try {
      await page.goto(origin + path, { waitUntil: "load" });
      if (path === "/docs") await page.waitForSelector(".opblock-tag");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${path} is ${width} px wide`);
      await page.addScriptTag({ content: axeSource });
      const violations = await page.evaluate(async () => {
        const result = await (window as any).axe.run(document, { resultTypes: ["violations"] });
        return result.violations.map((v: any) => ({
          id: v.id,
          impact: v.impact,
          nodes: v.nodes.length,
          target: v.nodes[0]?.target?.join(" "),
          summary: v.nodes[0]?.failureSummary?.slice(0, 200),
        }));
      });
      const serious = violations.filter((v: any) => v.impact === "serious" || v.impact === "critical");
      assert.deepEqual(serious, [], JSON.stringify(serious, null, 1));
    } finally {
      await page.close();
    }
  });
}

test("favicon: /favicon.ico is an icon every page links", async () => {
  const res = await service.request("/favicon.ico");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^image\//);
  assert.match(await (await service.request("/")).text(), /<link rel="icon"/);
});
