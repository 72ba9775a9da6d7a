import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import * as v from "valibot";
import { readmeFile, renderReadme, renderRegistry, registryFile } from "../../../core/runtime/registry.ts";
import { checkPlugins, listFamilies, loadPlugins } from "../../../core/runtime/load.ts";
import { definePlugin, defineEndpoint } from "../../../core/endpoint.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";

// A copy of the specification's catalog (shared/catalog.json beside the project), kept in the repository so
// these checks run on any clone: read from beside the project, they silently became none on CI's clean clone.
const catalog = JSON.parse(await readFile(new URL("./fixtures/catalog.json", import.meta.url), "utf8"));
const { endpoints, plugins, upstreams } = await loadPlugins();

test("registry.json is current: run npm run registry after changing an endpoint", async () => {
  assert.equal(await readFile(registryFile, "utf8"), await renderRegistry());
});

test("the README's data sources section is current: run npm run registry after changing an upstream", async () => {
  const readme = await readFile(readmeFile, "utf8");
  assert.equal(readme, await renderReadme());
  for (const name of Object.keys(upstreams)) assert.ok(readme.includes(`| \`${name}\` |`), `${name} is listed`);
});

test("an upstream name two families declare with different entries refuses to boot", async () => {
  const endpoint = (name: string) =>
    defineEndpoint({
      name,
      method: "GET",
      price: "$0.001",
      summary: "s",
      input: v.object({}),
      output: v.object({}),
      example: { input: {}, output: {} },
      upstreams: ["shared"],
      handler: () => ({}),
    });
  const entry = { url: "https://example.com", terms: "t" };
  const first = definePlugin({ family: "first", endpoints: [endpoint("first")], upstreams: { shared: entry } });
  const same = definePlugin({ family: "same", endpoints: [endpoint("same")], upstreams: { shared: entry } });
  const other = definePlugin({ family: "other", endpoints: [endpoint("other")], upstreams: { shared: { ...entry } } });
  await loadPlugins({ given: [first, same] });
  await assert.rejects(
    loadPlugins({ given: [first, other] }),
    /upstream shared \(other\): declared again with another entry/,
  );
});

test("every family folder loads and passes the boot checks", async () => {
  const families = await listFamilies();
  assert.ok(families.length > 0);
  assert.deepEqual([...new Set(endpoints.map((e) => e.family))].sort(), [...families, "core"].sort());
});

test("every paid route of the catalog is served", () => {
  assert.equal(catalog.paid.length, 250);
  const loaded = new Set(endpoints.map((e) => e.name));
  assert.deepEqual(
    catalog.paid.map((r: any) => r.name).filter((name: string) => !loaded.has(name)),
    [],
  );
});

const byName = new Map<string, any>(catalog.paid.map((r: any) => [r.name, r]));
for (const e of endpoints) {
  const listed = byName.get(e.name);
  if (listed) {
    test(`${e.name}: name, method, path and price match the catalog`, () => {
      assert.equal(e.price, listed.price);
      assert.equal(e.method, listed.method);
      assert.equal(e.path, listed.path);
      assert.equal(e.family, listed.family);
    });
  }
}

const service = await startTestService();
for (const e of endpoints.filter(
  (x) => !x.upstreams?.length && !x.probes && !x.requires?.length && !x.needsWallet && !x.signIn && !x.composes?.length,
)) {
  test(`${e.name}: its example runs and answers in its documented shape`, async () => {
    const out = await service.call(e.name, e.example.input);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.ok(v.safeParse(e.output, dataOf(out) ?? out.body).success);
  });
}

test("bad input is answered 400 before any handler runs, for every endpoint with a required field", async () => {
  let runs = 0;
  const counted = plugins
    .filter((p) => p.family !== "core")
    .map((p) => ({
      ...p,
      endpoints: p.endpoints.map((e) => ({
        ...e,
        handler: () => {
          runs++;
          throw new Error("must not run");
        },
      })),
    }));
  const spied = await startTestService({ plugins: counted.map((p) => p.family), given: counted });
  let checked = 0;
  for (const e of spied.runtime.endpoints) {
    const required =
      (e.input as any).entries && Object.entries<any>(e.input.entries).filter(([, s]) => s.type !== "optional");
    if (!required?.length) continue;
    const res =
      e.method === "GET"
        ? await spied.request(e.path)
        : await spied.request(e.path, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    assert.equal(res.status, 400, e.name);
    const body = await res.json();
    assert.equal(body.error.code, "invalid_input", e.name);
    assert.ok(body.error.details.issues.length > 0, e.name);
    assert.equal(res.headers.get("payment-required"), null, e.name);
    checked++;
  }
  assert.ok(checked > 0);
  assert.equal(runs, 0);
});

test("the loader refuses duplicates, bad prices, broken examples and unknown upstreams, listing every problem", () => {
  const ok = defineEndpoint({
    name: "same",
    method: "GET",
    price: "$0.001",
    summary: "s",
    input: v.object({ a: v.string() }),
    output: v.object({ b: v.number() }),
    example: { input: { a: "x" }, output: { b: 1 } },
    handler: () => ({ b: 1 }),
  });
  const broken = {
    ...ok,
    price: "0.01" as any,
    example: { input: { a: 1 as any }, output: { b: "no" as any } },
    upstreams: ["nowhere"],
  };
  const problems = checkPlugins([definePlugin({ family: "x", endpoints: [ok, broken] })]);
  assert.ok(
    problems.some((p) => p.includes("duplicate name")),
    problems.join("\n"),
  );
  assert.ok(problems.some((p) => p.includes("duplicate route")));
  assert.ok(problems.some((p) => p.includes("money string")));
  assert.ok(problems.some((p) => p.includes("example input")));
  assert.ok(problems.some((p) => p.includes("example output")));
  assert.ok(problems.some((p) => p.includes("upstream nowhere is not in the x family's table")));
});

test("a schema with a transform is refused because it cannot be documented", () => {
  const transformed = defineEndpoint({
    name: "t",
    method: "GET",
    price: "$0.001",
    summary: "s",
    input: v.object({
      a: v.pipe(
        v.string(),
        v.transform((s) => s.length),
      ),
    }) as any,
    output: v.object({}),
    example: { input: { a: "x" }, output: {} },
    handler: () => ({}),
  });
  const problems = checkPlugins([definePlugin({ family: "t", endpoints: [transformed] })]);
  assert.ok(
    problems.some((p) => p.includes("does not convert to JSON Schema")),
    problems.join("\n"),
  );
});
