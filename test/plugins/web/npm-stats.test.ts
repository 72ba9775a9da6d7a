import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import npmStats from "../../../plugins/web/npm-stats.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["web"], env: { UPSTREAM_NPM_DOWNLOADS_URL: `${url}/downloads` } });
const recorded = [
  "npm-downloads.left-pad-last-day",
  "npm-downloads.left-pad-last-week",
  "npm-downloads.left-pad-last-month",
];

test("npm-stats: downloads for the last day, week and month", async (t) => {
  const api = await serveFixtures(t, recorded, { dir });
  const out = await (await serviceFor(api.url)).call(npmStats, { package: "left-pad" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), {
    package: "left-pad",
    lastDay: { downloads: 412307, start: "2025-01-14", end: "2025-01-14" },
    lastWeek: { downloads: 2652210, start: "2025-01-08", end: "2025-01-14" },
    lastMonth: { downloads: 10941578, start: "2024-12-16", end: "2025-01-14" },
  });
});

test("npm-stats: a scoped name goes into the path as is", async (t) => {
  const point = (period: string, downloads: number) => ({
    source:
      "https://github.com/npm/registry/blob/main/docs/download-counts.md (scoped packages are supported in point queries)",
    request: { method: "GET", path: `/downloads/point/${period}/@types/node` },
    response: { status: 200, body: { downloads, start: "2025-01-01", end: "2025-01-01", package: "@types/node" } },
  });
  const api = await serveFixtures(t, [point("last-day", 1), point("last-week", 7), point("last-month", 30)]);
  const data = dataOf(await (await serviceFor(api.url)).call(npmStats, { package: "@types/node" }));
  assert.deepEqual([data.lastDay.downloads, data.lastWeek.downloads, data.lastMonth.downloads], [1, 7, 30]);
});

test("npm-stats: an unknown package is a 404", async (t) => {
  const missing = (period: string) => ({
    source: "https://github.com/npm/registry/blob/main/docs/download-counts.md (unknown package: 404 {error})",
    request: { method: "GET", path: `/downloads/point/${period}/no-such-pkg-xyz` },
    response: { status: 404, body: { error: "package no-such-pkg-xyz not found" } },
  });
  const api = await serveFixtures(t, [missing("last-day"), missing("last-week"), missing("last-month")]);
  const out = await (await serviceFor(api.url)).call(npmStats, { package: "no-such-pkg-xyz" });
  assert.equal(out.status, 404);
  assert.equal(errorOf(out).code, "not_found");
});

test("npm-stats: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://github.com/npm/registry/blob/main/docs/download-counts.md",
        request: { method: "GET", path: "/downloads/point/last-day/left-pad" },
        response: { status: 500, body: "error" },
      },
      "npm-downloads.left-pad-last-week",
      "npm-downloads.left-pad-last-month",
    ],
    { dir, reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(npmStats, { package: "left-pad" });
  assert.equal(out.status, 502);
});

test("npm-stats: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  for (const query of ["", "package=", "package=a%20b", "package=..%2Fetc"]) {
    assert.equal((await service.request(`/v1/npm-stats?${query}`)).status, 400, query);
  }
  assert.equal(api.calls.length, 0);
});
