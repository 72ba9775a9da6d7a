import { after, test } from "node:test";
import assert from "node:assert/strict";
import { serve } from "h3";
import type { Browser } from "playwright-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startTestService } from "../../helpers/service.ts";
import { agentEndpoints } from "../../../core/shared.ts";
import { launchChromium, openPage } from "../../helpers/browser.ts";

const service = await startTestService();
const get = async (path: string) => {
  const res = await service.request(path);
  assert.equal(res.status, 200, path);
  return res;
};

const agents = agentEndpoints(service.runtime.endpoints);
const paid = agents.filter((e) => e.price !== "$0");

test("openapi.json is a valid OpenAPI 3.1.0 document with one operation per agent route", async () => {
  const doc = await (await get("/openapi.json")).json();
  assert.equal(doc.openapi, "3.1.0");
  assert.equal(doc.info.version, "1.0.0");
  const validator = new Validator();
  const result = await validator.validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors)?.slice(0, 2000));
  const operations = Object.values<Record<string, any>>(doc.paths).flatMap((p) => Object.values(p));
  // One per route: the batch (and any GET that also takes a body) is served for POST too.
  const alsoPost = agents.filter((e) => e.acceptsBody && e.method === "GET").length;
  assert.ok(alsoPost >= 1);
  assert.equal(operations.length, agents.length + alsoPost);
  assert.ok(
    !Object.keys(doc.paths).some((path) => /^\/(site|arcade|swap)\/api\//.test(path)),
    "the pages' own routes stay out",
  );
  assert.ok(doc.paths["/v1/batch"].post.requestBody);
  assert.ok(doc.paths["/v1/batch"].get.parameters.find((p: any) => p.name === "calls").content["application/json"]);
  const hash = doc.paths["/v1/hash"].get;
  assert.equal(hash.operationId, "hash");
  assert.deepEqual(hash["x-payment-info"].price, { mode: "fixed", currency: "USD", amount: "0.001" });
  assert.equal(hash["x-payment-info"].protocols[0].x402.accepts[0].amount, "1000");
  assert.ok(hash.responses["402"].headers["PAYMENT-REQUIRED"]);
  assert.ok(hash.parameters.some((p: any) => p.name === "text" && p.required === true));
});

test("x402-manifest lists every paid route with its requirements and a Bazaar entry", async () => {
  const manifest = await (await get("/x402-manifest")).json();
  assert.equal(manifest.x402Version, 2);
  assert.equal(manifest.resources.length, paid.length);
  const hash = manifest.resources.find((r: any) => r.name === "hash");
  assert.equal(hash.resource, "http://127.0.0.1:4021/v1/hash");
  assert.equal(hash.accepts[0].amount, "1000");
  assert.equal(hash.extensions.bazaar.info.input.method, "GET");
  assert.equal(hash.extensions.bazaar.schema.properties.input.properties.queryParams.type, "object");
  assert.deepEqual(hash.extensions.bazaar.info.input.queryParams, { text: "hi", algo: "sha256" });
});

test("/.well-known/x402 has the {version, resources} shape with absolute URLs", async () => {
  const doc = await (await get("/.well-known/x402")).json();
  assert.equal(doc.version, 1);
  assert.ok(doc.resources.includes("http://127.0.0.1:4021/v1/hash"));
  assert.ok(doc.resources.every((r: string) => r.startsWith("http://127.0.0.1:4021/v1/")));
  assert.equal(doc.resources.length, paid.length);
  assert.deepEqual(Object.keys(doc).sort(), ["instructions", "resources", "version"]);
});

test("llms.txt lists each endpoint with its price", async () => {
  const text = await (await get("/llms.txt")).text();
  assert.match(text, /\[GET \/v1\/hash\]\(http:\/\/127\.0\.0\.1:4021\/v1\/hash\) \$0\.001: Hash text/);
});

test("every surface states one endpoint count: health, OpenAPI, llms.txt, the manifest and the well-known list", async () => {
  const health = await (await get("/health")).json();
  assert.equal(health.status, "ok");
  assert.equal(health.endpoints, agents.length);
  assert.equal(health.paid, paid.length);
  const line = `${agents.length} endpoints, ${paid.length} of them paid`;
  assert.match((await (await get("/openapi.json")).json()).info.description, new RegExp(line));
  const llms = await (await get("/llms.txt")).text();
  assert.match(llms, new RegExp(line));
  assert.equal(llms.split("\n").filter((l) => /^- \[(GET|POST) /.test(l)).length, agents.length);
  assert.ok(!/\/site\/api\/|\/arcade\/api\/|\/swap\/api\//.test(llms));
  assert.equal((await (await get("/x402-manifest")).json()).count, line);
  assert.match((await (await get("/.well-known/x402")).json()).instructions, new RegExp(line));
  assert.ok(health.families.includes("converters"));
});

test("/health is one constant body, built again only when what it reports is replaced", async () => {
  const own = await startTestService({ plugins: ["converters"] });
  const read = async () => Buffer.from(await (await own.request("/health")).arrayBuffer()).toString();
  const first = await read();
  assert.equal(JSON.parse(first).disabled.length, 0);
  // Changed in place, nothing is rebuilt: the answer is the constant built before.
  own.runtime.disabled.push({ name: "ghost", reason: "in place" });
  assert.equal(await read(), first);
  own.runtime.disabled = [{ name: "ghost", reason: "replaced" }];
  const rebuilt = JSON.parse(await read());
  assert.deepEqual(rebuilt.disabled, [{ name: "ghost", reason: "replaced" }]);
  assert.equal(rebuilt.endpoints, JSON.parse(first).endpoints);
});

test("an unknown route is a JSON 404 and a wrong method a 405", async () => {
  const missing = await service.request("/v1/nope");
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error.code, "not_found");
  const wrong = await service.request("/v1/hash", { method: "POST" });
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get("allow"), "GET");
});

test("CORS preflight allows the payment headers and the 402 exposes them", async () => {
  const pre = await service.request("/v1/hash", {
    method: "OPTIONS",
    headers: {
      origin: "https://agent.example",
      "access-control-request-method": "GET",
      "access-control-request-headers": "payment-signature,x-payment",
    },
  });
  assert.ok(pre.status === 204 || pre.status === 200);
  assert.match(pre.headers.get("access-control-allow-headers") ?? "", /payment-signature/);
  const challenge = await service.request("/v1/hash?text=a", { headers: { origin: "https://agent.example" } });
  assert.equal(challenge.status, 402);
  assert.equal(challenge.headers.get("access-control-allow-origin"), "*");
  assert.match(challenge.headers.get("access-control-expose-headers") ?? "", /payment-required/);
});

let browser: Browser | undefined;
after(() => browser?.close());

test("the docs page renders the operations in headless Chromium", async () => {
  const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  try {
    browser = await launchChromium();
    const page = await openPage(browser);
    await page.goto(`${server.url!.replace(/\/$/, "")}/docs`);
    await page.waitForSelector(".opblock-tag");
    const tags = await page.$$eval(".opblock-tag", (els) => els.map((e) => e.getAttribute("data-tag")));
    assert.ok(tags.includes("converters"), String(tags));
    await page.click('.opblock-tag[data-tag="converters"]');
    await page.waitForSelector("#operations-converters-hash");
    assert.match((await page.textContent("#operations-converters-hash")) ?? "", /\/v1\/hash/);
  } finally {
    await server.close(true);
  }
});
