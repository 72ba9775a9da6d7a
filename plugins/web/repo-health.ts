import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

/** What the code reads of GitHub's repository answer. */
const GithubRepo = v.object({
  full_name: v.string(),
  html_url: v.string(),
  description: v.nullable(v.string()),
  stargazers_count: v.number(),
  forks_count: v.number(),
  open_issues_count: v.number(),
  subscribers_count: v.optional(v.number()),
  default_branch: v.string(),
  language: v.nullable(v.string()),
  topics: v.optional(v.array(v.string())),
  license: v.nullable(v.object({ spdx_id: v.nullable(v.string()) })),
  archived: v.boolean(),
  fork: v.boolean(),
  created_at: v.string(),
  pushed_at: v.nullable(v.string()),
});
/** Only counted: one page of contributors. */
const Contributors = v.array(v.unknown());

const contributorPage = 100;
const dayMs = 86_400_000;

export default defineEndpoint({
  name: "repo-health",
  method: "GET",
  price: "$0.01",
  summary: "Health of a GitHub repository: stars, forks, open issues, last push, licence, archived flag, contributors",
  description:
    "From the GitHub REST API (set UPSTREAM_GITHUB_KEY to `Bearer <token>` for 5,000 requests an hour instead of 60). openIssues counts " +
    "open pull requests too, as GitHub does. Contributors are counted from one page of 100 (anonymous ones included): past that, " +
    "`contributorsCapped` is true and the count is a floor. When GitHub does not list them (the very largest repositories, empty ones) " +
    "or that one call fails, `contributors` is null and the rest is still answered.",
  input: v.object({
    repo: v.pipe(
      v.string(),
      v.maxLength(200),
      v.regex(
        /^(?:https?:\/\/(?:www\.)?github\.com\/)?[A-Za-z0-9][A-Za-z0-9-]{0,38}\/(?!\.{1,2}\/?$)[A-Za-z0-9._-]{1,100}\/?$/,
        "expected owner/name or a github.com URL",
      ),
      v.description("owner/name, or https://github.com/owner/name"),
    ),
  }),
  output: v.object({
    repo: v.string(),
    url: v.string(),
    description: v.nullable(v.string()),
    stars: v.number(),
    forks: v.number(),
    openIssues: v.pipe(v.number(), v.description("Open issues and pull requests")),
    watchers: v.nullable(v.number()),
    defaultBranch: v.string(),
    language: v.nullable(v.string()),
    topics: v.array(v.string()),
    license: v.pipe(v.nullable(v.string()), v.description("SPDX id; NOASSERTION when GitHub cannot tell")),
    archived: v.boolean(),
    fork: v.boolean(),
    createdAt: v.string(),
    lastPush: v.nullable(v.string()),
    daysSinceLastPush: v.nullable(v.number()),
    contributors: v.nullable(v.number()),
    contributorsCapped: v.boolean(),
  }),
  example: {
    input: { repo: "coinbase/x402" },
    output: {
      repo: "coinbase/x402",
      url: "https://github.com/coinbase/x402",
      description: "A payments protocol for the internet. Built on HTTP.",
      stars: 3120,
      forks: 612,
      openIssues: 148,
      watchers: 41,
      defaultBranch: "main",
      language: "TypeScript",
      topics: [],
      license: "Apache-2.0",
      archived: false,
      fork: false,
      createdAt: "2025-02-20T18:04:39Z",
      lastPush: "2025-07-01T16:20:11Z",
      daysSinceLastPush: 2,
      contributors: 100,
      contributorsCapped: true,
    },
  },
  cacheTtl: 6 * 3600,
  upstreams: ["github"],
  async handler({ input, upstream, now }) {
    const [owner, name] = input.repo
      .replace(/^https?:\/\/(?:www\.)?github\.com\//, "")
      .replace(/\/$/, "")
      .replace(/\.git$/, "")
      .split("/");
    const github = upstream("github");
    const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
    const repo = await github.json(path, GithubRepo, { notFoundAs404: true });
    const contributors = await github
      .json(`${path}/contributors`, Contributors, { query: { per_page: contributorPage, anon: "true" } })
      .then((list) => list.length)
      .catch((error) => {
        if (error instanceof ServiceError && error.status === 502) return null;
        throw error;
      });
    const pushed = repo.pushed_at ? Date.parse(repo.pushed_at) : NaN;
    return {
      repo: repo.full_name,
      url: repo.html_url,
      description: repo.description,
      stars: repo.stargazers_count,
      forks: repo.forks_count,
      openIssues: repo.open_issues_count,
      watchers: repo.subscribers_count ?? null,
      defaultBranch: repo.default_branch,
      language: repo.language,
      topics: repo.topics ?? [],
      license: repo.license?.spdx_id ?? null,
      archived: repo.archived,
      fork: repo.fork,
      createdAt: repo.created_at,
      lastPush: repo.pushed_at,
      daysSinceLastPush: Number.isNaN(pushed) ? null : Math.floor((now().getTime() - pushed) / dayMs),
      contributors,
      contributorsCapped: contributors === contributorPage,
    };
  },
});
