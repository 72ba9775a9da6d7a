// test: own-process: heavy: a sweep that runs beside the others
import assert from "node:assert/strict";
import { test } from "node:test";
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
} from "@agentcash/discovery";
import { isFree } from "../../../core/shared.ts";
import { fromExamples, origin, paidOperations, service } from "./_indexers.ts";

// x402scan's discovery and the Bazaar's own helpers, run on every live 402.
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
