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
import nihReporter from "../../../plugins/publicdata/nih-reporter.ts";
import { issuesOf } from "../../helpers/expect.ts";
import nihReporterEndpoint from "../../../plugins/publicdata/nih-reporter.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_NIH_REPORTER_URL: `${url}/v2` });
const docs = "https://api.reporter.nih.gov/";

test("nih-reporter: a text search for one fiscal year, in our shape", async (t) => {
  const api = await serveFixtures(t, ["nih-reporter.sickle-cell-2023"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call(nihReporterEndpoint, nihReporter.example.input));
  assert.deepEqual(data, nihReporter.example.output);
});

test("nih-reporter: organization, investigator and institute become RePORTER criteria; no match is an empty list", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: {
        method: "POST",
        path: "/v2/projects/search",
        body: {
          criteria: { org_names: ["BROAD INSTITUTE"], pi_names: [{ any_name: "Zzxqv" }], agencies: ["NCI"] },
          include_fields: [
            "ApplId",
            "ProjectNum",
            "ProjectTitle",
            "AbstractText",
            "FiscalYear",
            "AwardAmount",
            "ActivityCode",
            "Organization",
            "PrincipalInvestigators",
            "AgencyIcAdmin",
            "ProjectStartDate",
            "ProjectEndDate",
            "ProjectDetailUrl",
          ],
          offset: 20,
          limit: 10,
          sort_field: "fiscal_year",
          sort_order: "desc",
        },
      },
      response: {
        status: 200,
        body: {
          meta: {
            search_id: "a1",
            total: 0,
            offset: 20,
            limit: 10,
            sort_field: "fiscal_year",
            sort_order: "desc",
            sorted_by_relevance: false,
            properties: {},
          },
          results: [],
        },
      },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call(nihReporterEndpoint, {
      organization: "BROAD INSTITUTE",
      pi: "Zzxqv",
      agency: "nci",
      offset: 20,
    }),
  );
  assert.deepEqual(data, { total: 0, projects: [] });
});

test("nih-reporter: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("POST", "/v2/projects/search", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call(nihReporterEndpoint, { q: "malaria" }));
});

test("nih-reporter: bad input is a 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/nih-reporter?q=malaria&year=1900"), "year");
  await expectFree400(await service.request("/v1/nih-reporter?q=malaria&agency=N-C-I"), "agency");
  const empty = await service.call(nihReporterEndpoint, { year: 2023 });
  assert.equal(empty.status, 400);
  assert.equal(issuesOf(empty)[0].field, "q");
  assert.equal(api.calls.length, 0);
});
