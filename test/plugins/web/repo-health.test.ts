import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import repoHealth from "../../../plugins/web/repo-health.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string, key?: string) =>
  startTestService({
    plugins: ["web"],
    env: { UPSTREAM_GITHUB_URL: url, ...(key ? { UPSTREAM_GITHUB_KEY: key } : {}) },
  });

test("repo-health: repository facts and contributors, with the token sent when configured", async (t) => {
  const github = await serveFixtures(t, ["github.repo-octo", "github.contributors-octo"], { dir });
  const out = await (await serviceFor(github.url, "Bearer ghp_test")).call(repoHealth, {
    repo: "https://github.com/octo-org/octo-repo/",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    { ...data, daysSinceLastPush: undefined },
    {
      repo: "octo-org/octo-repo",
      url: "https://github.com/octo-org/octo-repo",
      description: "This your first repo!",
      stars: 80,
      forks: 9,
      openIssues: 2,
      watchers: 42,
      defaultBranch: "master",
      language: "JavaScript",
      topics: ["octocat", "atom", "electron", "api"],
      license: "MIT",
      archived: true,
      fork: false,
      createdAt: "2011-01-26T19:01:12Z",
      lastPush: "2011-01-26T19:06:43Z",
      daysSinceLastPush: undefined,
      contributors: 3,
      contributorsCapped: false,
    },
  );
  assert.equal(data.daysSinceLastPush, Math.floor((Date.now() - Date.parse("2011-01-26T19:06:43Z")) / 86_400_000));
  assert.equal(github.calls[0].headers.authorization, "Bearer ghp_test");
  assert.equal(github.calls[0].headers["x-github-api-version"], "2022-11-28");
});

test("repo-health: contributors GitHub will not list are null, the rest still answered", async (t) => {
  const refused: Fixture = {
    source:
      "https://docs.github.com/en/rest/repos/repos#list-repository-contributors (403: history or contributor list is too large to list contributors)",
    request: { method: "GET", path: "/repos/octo-org/octo-repo/contributors?per_page=100&anon=true" },
    response: {
      status: 403,
      body: {
        message: "The history or contributor list is too large to list contributors for this repository via the API.",
        documentation_url: "https://docs.github.com/rest/repos/repos#list-repository-contributors",
        status: "403",
      },
    },
  };
  const github = await serveFixtures(t, ["github.repo-octo", refused], { dir });
  const data = ((await (await serviceFor(github.url)).call(repoHealth, { repo: "octo-org/octo-repo" })).body as any)
    .data;
  assert.equal(data.contributors, null);
  assert.equal(data.contributorsCapped, false);
  assert.equal(data.stars, 80);
});

test("repo-health: an unknown repository is a 404 and contributors are not asked", async (t) => {
  const github = await serveFixtures(t, [
    {
      source: "https://docs.github.com/en/rest/repos/repos#get-a-repository (404 Resource not found)",
      request: { method: "GET", path: "/repos/octo-org/missing" },
      response: {
        status: 404,
        body: {
          message: "Not Found",
          documentation_url: "https://docs.github.com/rest/repos/repos#get-a-repository",
          status: "404",
        },
      },
    },
  ]);
  const out = await (await serviceFor(github.url)).call(repoHealth, { repo: "octo-org/missing" });
  assert.equal(out.status, 404);
  assert.equal(github.calls.length, 1);
});

test("repo-health: GitHub's rate limit is a 502", async (t) => {
  const github = await serveFixtures(t, [
    {
      source:
        "https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api (primary rate limit exceeded: 403 with x-ratelimit-remaining: 0)",
      request: { method: "GET", path: "/repos/octo-org/octo-repo" },
      response: {
        status: 403,
        headers: { "x-ratelimit-remaining": "0" },
        body: {
          message: "API rate limit exceeded for 127.0.0.1.",
          documentation_url: "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting",
        },
      },
    },
  ]);
  const out = await (await serviceFor(github.url)).call(repoHealth, { repo: "octo-org/octo-repo" });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).details?.upstream, "github");
});

test("repo-health: bad input is a free 400 and calls nothing", async (t) => {
  const github = await serveFixtures(t, []);
  const service = await serviceFor(github.url);
  for (const repo of ["octo-org", "octo-org/..", "https://gitlab.com/a/b", "a/b/c", "-bad/name"]) {
    const res = await service.request(`/v1/repo-health?repo=${encodeURIComponent(repo)}`);
    assert.equal(res.status, 400, repo);
  }
  assert.equal(github.calls.length, 0);
});
