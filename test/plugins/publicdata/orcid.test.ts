import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectNotFound,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";
import orcid from "../../../plugins/publicdata/orcid.ts";
import { issuesOf } from "../../helpers/expect.ts";
import orcidEndpoint from "../../../plugins/publicdata/orcid.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_ORCID_URL: `${url}/v3.0` });
const docs = "https://info.orcid.org/documentation/api-tutorials/api-tutorial-read-data-on-a-record/";

test("orcid: a public record in our shape, asked for as JSON", async (t) => {
  const api = await serveFixtures(t, ["orcid.carberry"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call(orcidEndpoint, orcid.example.input));
  assert.deepEqual(data, orcid.example.output);
  assert.equal(api.calls[0].headers.accept, "application/json");
});

test("orcid: an id ORCID does not have is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (an unknown iD answers 404 with response-code and user-message)`,
      request: { method: "GET", path: "/v3.0/0000-0001-5109-3700/record" },
      response: {
        status: 404,
        body: {
          "response-code": 404,
          "developer-message": "404 Not Found: The resource was not found.",
          "user-message": "The resource was not found.",
          "error-code": 9016,
        },
      },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call(orcidEndpoint, { id: "0000-0001-5109-3700" }));
});

test("orcid: a wrong check digit is a 400 before any call", async (t) => {
  const api = await serveFixtures(t, []);
  const out = await (await serviceFor(api.url)).call(orcidEndpoint, { id: "0000-0002-1825-0098" });
  assert.equal(out.status, 400);
  assert.equal(issuesOf(out)[0].field, "id");
  assert.equal(api.calls.length, 0);
});

test("orcid: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/v3.0/0000-0002-1825-0097/record", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call(orcidEndpoint, { id: "0000-0002-1825-0097" }));
});

test("orcid: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/orcid"), "id");
  await expectFree400(await service.request("/v1/orcid?id=0000000218250097"), "id");
  await expectFree400(await service.request("/v1/orcid?id=0000-0002-1825-0097&works=500"), "works");
  assert.equal(api.calls.length, 0);
});
