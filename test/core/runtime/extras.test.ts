import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { checkPlugins } from "../../../core/runtime/load.ts";
import { schemasOf } from "../../../core/runtime/schema.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";

const ticks: string[] = [];
const echo = defineEndpoint({
  name: "echo-part",
  method: "GET",
  price: "$0.001",
  summary: "Echoes its word",
  input: v.object({ word: v.pipe(v.string(), v.maxLength(10)) }),
  output: v.object({ word: v.string(), ip: v.string() }),
  example: { input: { word: "hi" }, output: { word: "hi", ip: "127.0.0.1" } },
  handler: ({ input, clientIp }) => ({ word: input.word, ip: clientIp }),
});
const pair = defineEndpoint({
  name: "pair",
  method: "GET",
  price: "$0.002",
  summary: "Calls echo-part twice, once with bad input",
  input: v.object({}),
  output: v.object({ parts: v.array(v.object({ status: v.number(), body: v.unknown() })) }),
  example: { input: {}, output: { parts: [] } },
  handler: async (ctx) => ({
    parts: await Promise.all([
      ctx.call("echo-part", { word: "a" }),
      ctx.call("echo-part", { word: 3 }),
      ctx.call("nowhere", {}),
    ]),
  }),
});
const plugin = definePlugin({
  family: "extras",
  endpoints: [echo, pair],
  pages: [{ path: "/play", title: "Play <here>", body: () => `<p id="x">hello</p>` }],
  assets: [{ path: "/play/app.js", type: "text/javascript", file: new URL(import.meta.url) }],
  jobs: [{ name: "count", everyMs: 60_000, run: async (ctx) => void ticks.push(ctx.now().toISOString()) }],
});

test("a page is served inside the shared layout, with the navigation and escaped title", async () => {
  const service = await startTestService({ given: [plugin] });
  const res = await service.request("/play");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /text\/html/);
  const html = await res.text();
  assert.match(html, /<p id="x">hello<\/p>/);
  assert.match(html, /<title>Play &lt;here&gt; · /);
  assert.match(html, /<a href="\/play" aria-current="page">Play &lt;here&gt;<\/a>/);
  assert.match(html, /<a href="\/docs">/);
  const asset = await service.request("/play/app.js");
  assert.equal(asset.headers.get("content-type"), "text/javascript");
  assert.match(await asset.text(), /a page is served inside the shared layout/);
});

test("a job tick runs on one instance of two sharing a store, and again on the next tick", async () => {
  let now = new Date("2026-11-23T00:00:10Z");
  const store = createMemoryStore();
  const a = await startTestService({ given: [plugin], store, now: () => now });
  const b = await startTestService({ given: [plugin], store, now: () => now });
  ticks.length = 0;
  const first = await Promise.all([a.jobs.run("count"), b.jobs.run("count")]);
  assert.deepEqual(first.sort(), [false, true]);
  assert.deepEqual(ticks, ["2026-11-23T00:00:10.000Z"]);
  now = new Date("2026-11-23T00:01:10Z");
  assert.equal(await b.jobs.run("count"), true);
  assert.equal(await a.jobs.run("count"), false);
  assert.deepEqual(ticks, ["2026-11-23T00:00:10.000Z", "2026-11-23T00:01:10.000Z"]);
  await Promise.all([a.close(), b.close()]);
});

test("ctx.call runs a part prepaid: validated, failures in place, unknown parts a 503", async () => {
  const service = await startTestService({ given: [plugin] });
  const out = await service.call("pair", {});
  assert.equal(out.status, 200);
  const [ok, bad, missing] = dataOf(out).parts;
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body.data, { word: "a", ip: "127.0.0.1" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.details.issues[0].field, "word");
  assert.equal(missing.status, 503);
});

test("the loader refuses a page on a taken route and a job name used twice", () => {
  assert.deepEqual(checkPlugins([plugin]), []);
  const clash = definePlugin({
    family: "y",
    endpoints: [],
    pages: [{ path: "/play", title: "t", body: "" }],
    jobs: plugin.jobs,
  });
  const refused = checkPlugins([plugin, clash]);
  assert.ok(
    refused.some((p) => p.includes("/play") && p.includes("duplicate route")),
    refused.join("\n"),
  );
  assert.ok(
    refused.some((p) => p.includes("job count") && p.includes("duplicate name")),
    refused.join("\n"),
  );
});

test("oneOf: exactly one group of alternative fields, checked before payment and documented in the schema", async () => {
  const where = defineEndpoint({
    name: "where",
    method: "GET",
    price: "$0.001",
    summary: "A place or coordinates",
    oneOf: [["lat", "lon"], ["place"]],
    input: v.object({ lat: v.optional(v.number()), lon: v.optional(v.number()), place: v.optional(v.string()) }),
    output: v.object({ ok: v.boolean() }),
    example: { input: { place: "Paris" }, output: { ok: true } },
    handler: () => ({ ok: true }),
  });
  const service = await startTestService({ given: [definePlugin({ family: "where", endpoints: [where] })] });
  const issues = async (query: string) => {
    const res = await service.request(`/v1/where${query}`);
    return res.status === 400 ? (await res.json()).error.details.issues : res.status;
  };
  assert.deepEqual(await issues(""), [{ field: "lat", message: "Give lat and lon, or place" }]);
  assert.deepEqual(await issues("?lat=1"), [{ field: "lon", message: "lat and lon go together" }]);
  assert.deepEqual(await issues("?lat=1&lon=2&place=Paris"), [
    { field: "place", message: "Give only one of: lat and lon, or place" },
  ]);
  assert.equal(await issues("?lat=1&lon=2"), 402);
  assert.equal(await issues("?place=Paris"), 402);
  assert.deepEqual(schemasOf(service.runtime.endpoints[0]).input.oneOf, [
    { required: ["lat", "lon"] },
    { required: ["place"] },
  ]);
});
