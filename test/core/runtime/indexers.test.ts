import { after, test } from "node:test";
import assert from "node:assert/strict";
import { serve } from "h3";
import { validate as validateOpenApi, compileErrors } from "@readme/openapi-parser";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { extractDiscoveryInfo, validateDiscoveryExtension } from "@x402/extensions/bazaar";
import {
  checkL2ForOpenAPI,
  checkL4ForOpenAPI,
  getL3ForOpenAPI,
  getOpenAPI,
  getProbe,
  getWarningsForL2,
  getWarningsForL3,
  getWarningsForL4,
  getWarningsForFavicon,
  getWarningsForOpenAPI,
  isOpenApiParseFailure,
  validatePaymentRequiredDetailed,
  type HttpMethod,
} from "@agentcash/discovery";
import { isFree } from "../../../core/shared.ts";
import { startTestService } from "../../helpers/service.ts";

// What the catalogs run on us, with their own libraries: x402scan's discovery (@agentcash/discovery), the
// Bazaar's extension helpers (@x402/extensions), and two OpenAPI linters. Rate limits are off: a catalog probes every route.
const service = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: "1000000" } });
const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
await server.ready();
const origin = server.url!.replace(/\/$/, "");
after(() => Promise.all([server.close(true), service.close()]));

const openapi = await (await service.request("/openapi.json")).json();
const paidOperations = Object.entries<Record<string, any>>(openapi.paths).flatMap(([path, item]) =>
  Object.entries<any>(item)
    .filter(([, op]) => op["x-payment-info"])
    .map(([method, op]) => ({ path, method: method.toUpperCase() as HttpMethod, op })),
);

/**
 * A request made only from the OpenAPI document: the parameters' examples, or the body's. `every` also sends the
 * parameters whose example is only in their schema, as a generic sampler does.
 */
function fromExamples(
  { path, method, op }: (typeof paidOperations)[number],
  { every = false } = {},
): { url: string; init: RequestInit } {
  if (method === "POST") {
    const body = op.requestBody.content["application/json"].example;
    return { url: path, init: { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } } };
  }
  const query = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    const content = p.content?.["application/json"];
    const schema = p.schema ?? content?.schema;
    const example = p.example ?? content?.example ?? (every ? (schema?.examples?.[0] ?? schema?.example) : undefined);
    if (example === undefined) continue;
    query.set(
      p.name,
      p.content ? JSON.stringify(example) : Array.isArray(example) ? example.join(",") : String(example),
    );
  }
  return { url: `${path}?${query}`, init: { method } };
}

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

test("a probe built only from the OpenAPI examples reaches the 402 on every paid operation", async () => {
  const missed: string[] = [];
  for (const operation of paidOperations) {
    const { url, init } = fromExamples(operation);
    const res = await service.request(url, init);
    if (res.status !== 402)
      missed.push(`${operation.method} ${url.slice(0, 80)}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  }
  assert.ok(paidOperations.length > 200);
  assert.deepEqual(missed, [], `${missed.length} of ${paidOperations.length} missed`);
});

test("a probe filling every documented example, schemas' included, reaches the 402 on every paid operation", async () => {
  const missed: string[] = [];
  for (const operation of paidOperations) {
    const { url, init } = fromExamples(operation, { every: true });
    const res = await service.request(url, init);
    if (res.status !== 402)
      missed.push(`${operation.method} ${url.slice(0, 80)}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  }
  assert.ok(paidOperations.length > 200);
  assert.deepEqual(missed, [], `${missed.length} of ${paidOperations.length} missed`);
});

test("@agentcash/discovery reads the OpenAPI and validates every live 402 with no error", async () => {
  const source = (await getOpenAPI(origin))._unsafeUnwrap();
  assert.ok(source && !isOpenApiParseFailure(source));
  const l2 = checkL2ForOpenAPI(source);
  const favicon = (await getWarningsForFavicon(origin)).unwrapOr([]);
  assert.deepEqual(favicon, []);
  const warnings = [
    ...getWarningsForOpenAPI(source),
    ...getWarningsForL2(l2),
    ...getWarningsForL4(checkL4ForOpenAPI(source)),
    ...favicon,
  ];
  assert.equal(l2.routes.filter((r) => r.authMode === "paid").length, paidOperations.length);
  assert.ok(
    l2.routes.every((r) => r.authMode),
    "every route has an auth mode",
  );
  for (const operation of paidOperations) {
    const advisory = getL3ForOpenAPI(source, operation.path, operation.method);
    const { url, init } = fromExamples(operation);
    const probes = (
      await getProbe(origin + url, undefined, undefined, init.body ? JSON.parse(init.body as string) : undefined)
    )._unsafeUnwrap();
    const probe = probes.find((p) => p.method === operation.method);
    assert.ok(probe?.paymentRequiredBody, `${operation.method} ${operation.path} answered no 402`);
    const detailed = validatePaymentRequiredDetailed(probe.paymentRequiredBody);
    assert.equal(
      detailed.valid,
      true,
      `${operation.path}: ${JSON.stringify(detailed.issues.filter((i) => i.severity === "error"))}`,
    );
    warnings.push(
      ...getWarningsForL3(advisory ? { ...advisory, paymentRequiredBody: probe.paymentRequiredBody } : null),
    );
  }
  const errors = warnings.filter((w) => w.severity === "error");
  assert.deepEqual(errors.slice(0, 5), [], `${errors.length} errors`);
});

test("the Bazaar's own helpers validate every paid route's extension and extract its discovery info", async () => {
  const paid = service.runtime.endpoints.filter((e) => !isFree(e) && !/^\/[a-z0-9-]+\/api\//.test(e.path));
  for (const endpoint of paid) {
    const operation = paidOperations.find((o) => o.path === endpoint.path && o.method === endpoint.method)!;
    const { url, init } = fromExamples(operation);
    const res = await service.request(url, init);
    assert.equal(res.status, 402, endpoint.name);
    const header = res.headers.get("payment-required");
    const required = JSON.parse(Buffer.from(header!, "base64").toString("utf8"));
    const check = validateDiscoveryExtension(required.extensions.bazaar);
    assert.equal(check.valid, true, `${endpoint.name}: ${check.errors?.join("; ")}`);
    const payload = {
      x402Version: 2,
      resource: required.resource,
      accepted: required.accepts[0],
      payload: {},
      extensions: required.extensions,
    };
    const info = extractDiscoveryInfo(payload as never, required.accepts[0]);
    assert.equal(info?.resourceUrl, required.resource.url, endpoint.name);
    assert.equal((info as { method?: string }).method, endpoint.method, endpoint.name);
    // The client echoes the extension in its payment header: the 402's headers fit Node's 16 KiB default.
    let headerBytes = 0;
    res.headers.forEach((v, k) => (headerBytes += k.length + v.length + 4));
    assert.ok(headerBytes < 12_000, `${endpoint.name}: ${headerBytes} bytes of headers`);
  }
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
