import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";
import usaspending from "../../../plugins/publicdata/usaspending.ts";
import { errorOf, issuesOf } from "../../helpers/expect.ts";
import usaspendingEndpoint from "../../../plugins/publicdata/usaspending.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_USASPENDING_URL: `${url}/api/v2` });
const docs =
  "https://github.com/fedspendingtransparency/usaspending-api/blob/master/usaspending_api/api_contracts/contracts/v2/search/spending_by_award.md";

test("usaspending: contracts by keyword and agency, largest first, in our shape", async (t) => {
  const api = await serveFixtures(t, ["usaspending.hypersonic-dod"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call(usaspendingEndpoint, usaspending.example.input));
  assert.deepEqual(data, usaspending.example.output);
});

test("usaspending: grants use their own type codes and field; no match is an empty list", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: {
        method: "POST",
        path: "/api/v2/search/spending_by_award/",
        body: {
          filters: {
            award_type_codes: ["02", "03", "04", "05"],
            time_period: [{ start_date: "2020-01-01", end_date: "2020-12-31" }],
            recipient_search_text: ["Zzxqv Foundation"],
          },
          fields: [
            "Award ID",
            "Recipient Name",
            "Award Amount",
            "Awarding Agency",
            "Awarding Sub Agency",
            "Award Type",
            "Start Date",
            "End Date",
            "Description",
          ],
          limit: 10,
          page: 1,
          sort: "Award Amount",
          order: "desc",
        },
      },
      response: {
        status: 200,
        body: {
          limit: 10,
          results: [],
          page_metadata: { page: 1, hasNext: false, last_record_unique_id: null, last_record_sort_value: null },
          messages: [],
        },
      },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call(usaspendingEndpoint, {
      recipient: "Zzxqv Foundation",
      type: "grants",
      from: "2020-01-01",
      to: "2020-12-31",
    }),
  );
  assert.deepEqual(data, { page: 1, hasNext: false, awards: [] });
});

test("usaspending: a filter USAspending refuses is a 400 with its reason", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (invalid filters answer 422 with detail)`,
      request: { method: "POST", path: "/api/v2/search/spending_by_award/" },
      response: { status: 422, body: { detail: "Field 'filters|agencies|name' is not a known agency" } },
    },
  ]);
  const out = await (await serviceFor(api.url)).call(usaspendingEndpoint, {
    agency: "Ministry of Magic",
    from: "2024-01-01",
    to: "2024-02-01",
  });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /not a known agency/);
});

test("usaspending: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("POST", "/api/v2/search/spending_by_award/", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call(usaspendingEndpoint, { q: "bridge" }));
});

test("usaspending: bad input is a 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/usaspending?type=loans"), "type");
  await expectFree400(await service.request("/v1/usaspending?from=2024-13-01"), "from");
  await expectFree400(await service.request("/v1/usaspending?q=ab"), "q");
  const early = await service.call(usaspendingEndpoint, { from: "2001-01-01" });
  assert.equal(early.status, 400);
  assert.equal(issuesOf(early)[0].field, "from");
  assert.equal(api.calls.length, 0);
});
