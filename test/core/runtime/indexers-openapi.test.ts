// test: own-process: heavy: a sweep that runs beside the others
import assert from "node:assert/strict";
import { test } from "node:test";
import { validate as validateOpenApi, compileErrors } from "@readme/openapi-parser";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { fromExamples, openapi, origin, paidOperations, service } from "./_indexers.ts";

// The OpenAPI document as two linters and x402scan's payment info read it.
test("openapi: @readme/openapi-parser validates it and Redocly's recommended rules report no error", async () => {
  const result = await validateOpenApi(structuredClone(openapi));
  assert.equal(result.valid, true, result.valid ? "" : compileErrors(result).slice(0, 2000));
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({
    source: JSON.stringify(openapi),
    absoluteRef: `${origin}/openapi.json`,
    config,
  });
  const errors = problems.filter((p) => p.severity === "error");
  assert.deepEqual(
    errors.slice(0, 5).map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`),
    [],
  );
});

test("openapi: every response and nearly every parameter has an example, and the paid operations carry x402scan's payment info", () => {
  let parameters = 0;
  const without: string[] = [];
  // The alternatives the example call does not take carry none, so that a sampler's call stays one of a one-of.
  const untaken = new Set(
    service.runtime.endpoints.flatMap((e) =>
      (e.oneOf ?? [])
        .filter((group) => group.every((f) => (e.example.input as Record<string, unknown>)[f] === undefined))
        .flat()
        .map((field) => `${e.name}.${field}`),
    ),
  );
  for (const item of Object.values<Record<string, any>>(openapi.paths)) {
    for (const op of Object.values<any>(item)) {
      for (const p of op.parameters ?? []) {
        parameters++;
        const schema = p.schema ?? p.content["application/json"].schema;
        if (untaken.has(`${op.operationId}.${p.name}`)) continue;
        if (
          !(
            p.example !== undefined ||
            p.content?.["application/json"]?.example !== undefined ||
            schema.examples?.length
          )
        )
          without.push(`${op.operationId}.${p.name}`);
      }
      for (const [status, response] of Object.entries<any>(op.responses))
        assert.ok(response.content["application/json"].example !== undefined, `${op.operationId} ${status}`);
      // Nothing is needed before the 402, but a sign-in for a route that reads the signing wallet's own data.
      assert.deepEqual(op.security, op.responses[401] ? [{ siwx: [] }] : []);
    }
  }
  assert.ok(parameters > 700);
  // Optional parameters outside the example call whose pattern no value at hand fits (an LEI, an ISIN); the probe never sends them.
  assert.ok(without.length <= 8, without.join(", "));
  const hash = openapi.paths["/v1/hash"].get["x-payment-info"];
  assert.deepEqual(hash.price, { mode: "fixed", currency: "USD", amount: "0.001" });
  assert.ok(hash.protocols[0].x402.accepts[0].amount);
  assert.equal(openapi.paths["/v1/batch"].get["x-payment-info"].price.mode, "dynamic");
  assert.ok(openapi["x-service-info"].categories.includes("converters"));
  assert.ok(openapi.components.securitySchemes.x402);
});

test("X-PAYMENT-Requirements is ASCII JSON: a description with ³ reads the same in a fetch client, which reads header bytes as Latin-1", async () => {
  const water = paidOperations.find((o) => o.path === "/v1/water")!;
  const { url, init } = fromExamples(water);
  const res = await service.request(url, init);
  assert.equal(res.status, 402);
  const header = res.headers.get("x-payment-requirements")!;
  assert.match(header, /^[\x20-\x7e]+$/);
  assert.match(JSON.parse(header).accepts[0].description, /ft³\/s/);
});
