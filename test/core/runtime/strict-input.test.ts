import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { nearestName } from "../../../core/runtime/schema.ts";

// An unknown parameter is a free 400 that names it and the nearest known name, before any payment, on every
// transport: dropped, it would have the call charged for an answer the caller did not ask for (`algorithm=md5`
// answered with sha256).
const service = await startTestService({ plugins: ["converters"] });
after(() => service.close());

const issuesOf = async (res: Response) => {
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("payment-required"), null);
  return (await res.json()).error;
};

test("strict input: an unknown query parameter on a GET is a free 400 naming it and the nearest known name", async () => {
  const error = await issuesOf(await service.request("/v1/hash?text=hi&algorithm=md5"));
  assert.deepEqual(
    error.details.issues.map((i: any) => i.field),
    ["algorithm"],
  );
  assert.match(error.message, /Unknown parameter "algorithm"; did you mean "algo"\?/);
  // Known parameters still reach the 402.
  assert.equal((await service.request("/v1/hash?text=hi&algo=md5")).status, 402);
});

test("strict input: an unknown field in a POST body, or in its query string, is a free 400", async () => {
  const body = { json: "{}", strict: true };
  const error = await issuesOf(
    await service.request("/v1/validate-json", {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    }),
  );
  assert.equal(error.details.issues[0].field, "strict");
  const inQuery = await issuesOf(
    await service.request("/v1/validate-json?verbose=1", {
      method: "POST",
      body: JSON.stringify({ json: "{}" }),
      headers: { "content-type": "application/json" },
    }),
  );
  assert.equal(inQuery.details.issues[0].field, "verbose");
});

test("strict input: a batch item's unknown parameter is a free 400 naming the item's field", async () => {
  const calls = JSON.stringify([{ path: "/v1/hash", params: { text: "hi", algorithm: "md5" } }]);
  const error = await issuesOf(await service.request(`/v1/batch?calls=${encodeURIComponent(calls)}`));
  assert.equal(error.details.issues[0].field, "calls.0.params.algorithm");
  assert.match(error.details.issues[0].message, /did you mean "algo"/);
  const posted = await issuesOf(
    await service.request("/v1/batch", {
      method: "POST",
      body: JSON.stringify({ calls: JSON.parse(calls) }),
      headers: { "content-type": "application/json" },
    }),
  );
  assert.equal(posted.details.issues[0].field, "calls.0.params.algorithm");
  // The batch's own example is a call that works.
  const batch = service.runtime.endpoints.find((e) => e.name === "batch")!;
  const example = await service.request("/v1/batch", {
    method: "POST",
    body: JSON.stringify(batch.example.input),
    headers: { "content-type": "application/json" },
  });
  assert.equal(example.status, 402);
});

test("nearestName: a name that contains the other wins, then the fewest edits", () => {
  assert.equal(nearestName("algorithm", ["text", "algo"]), "algo");
  assert.equal(nearestName("txt", ["text", "algo"]), "text");
  assert.equal(nearestName("x", []), undefined);
});
