import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import snapshotProposals from "../../../plugins/onchain/snapshot-proposals.ts";

const serviceWith = (url: string) =>
  startTestService({ plugins: ["onchain"], env: { UPSTREAM_SNAPSHOT_HUB_URL: url } });
const query = `query Proposals($first: Int!, $where: ProposalWhere) {
  proposals(first: $first, skip: 0, where: $where, orderBy: "created", orderDirection: desc) {
    id title state author created start end choices scores scores_total votes quorum link space { id name }
  }
}`;
const graphql = (variables: unknown, status: number, body: unknown): Fixture => ({
  source:
    "https://docs.snapshot.box/tools/api (POST /graphql, proposals(first, skip, where, orderBy, orderDirection) -> {data: {proposals: [{id, title, state, author, created, start, end, choices, scores, scores_total, votes, quorum, link, space{id, name}}]}}; errors as {errors: [{message}]})",
  request: { method: "POST", path: "/graphql", body: { query, variables } },
  response: { status, body },
});

const aaveProposal = {
  id: "0x3f8b0e2f0e5b7f3b9d0f5c6a0e8f4b2c1d7e9a6b5c4d3e2f1a0b9c8d7e6f5a4b",
  title: "[ARFC] Add rsETH to Aave v3 Ethereum",
  state: "active",
  author: "0x329c54289Ff5D6B7b7daE13592C6B1EDA1543eD4",
  created: 1720000000,
  start: 1720086400,
  end: 1720345600,
  choices: ["YAE", "NAY", "Abstain"],
  scores: [412000.5, 1200, 0],
  scores_total: 413200.5,
  votes: 87,
  quorum: 0,
  link: "https://snapshot.org/#/aave.eth/proposal/0x3f8b0e2f0e5b7f3b9d0f5c6a0e8f4b2c1d7e9a6b5c4d3e2f1a0b9c8d7e6f5a4b",
  space: { id: "aave.eth", name: "Aave" },
};

test("snapshot-proposals: a space's active proposals with ISO dates and the leading choice", async (t) => {
  const api = await serveFixtures(t, [
    graphql({ first: 5, where: { space: "aave.eth", state: "active" } }, 200, { data: { proposals: [aaveProposal] } }),
  ]);
  const out = await (await serviceWith(api.url)).call(snapshotProposals, {
    space: "aave.eth",
    state: "active",
    limit: 5,
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const [p] = dataOf(out).proposals;
  assert.deepEqual(
    [p.title, p.space.name, p.state, p.leadingChoice, p.votes],
    [aaveProposal.title, "Aave", "active", "YAE", 87],
  );
  assert.deepEqual(
    [p.createdAt, p.startsAt, p.endsAt],
    ["2024-07-03T09:46:40.000Z", "2024-07-04T09:46:40.000Z", "2024-07-07T09:46:40.000Z"],
  );
  assert.deepEqual(p.scores, [412000.5, 1200, 0]);
  assert.equal(p.url, aaveProposal.link);
});

test("snapshot-proposals: state all sends no state filter; GraphQL errors are a 502", async (t) => {
  const api = await serveFixtures(t, [
    graphql({ first: 10, where: {} }, 200, { data: { proposals: [] } }),
    graphql({ first: 10, where: { space: "nope.eth" } }, 200, { errors: [{ message: "rate limit exceeded" }] }),
  ]);
  const service = await serviceWith(api.url);
  const all = await service.call(snapshotProposals, {});
  assert.equal(all.status, 200, JSON.stringify(all.body));
  assert.deepEqual(dataOf(all), { space: null, state: "all", proposals: [] });
  const failed = await service.call(snapshotProposals, { space: "nope.eth" });
  assert.equal(failed.status, 502);
  assert.match(errorOf(failed).message, /rate limit/);
});

test("snapshot-proposals: bad input is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const [path, field] of [
    ["/v1/snapshot-proposals?state=open", "state"],
    ["/v1/snapshot-proposals?limit=500", "limit"],
    ["/v1/snapshot-proposals?space=a%20b", "space"],
  ]) {
    const res = await service.request(path);
    assert.equal(res.status, 400, path);
    assert.ok(
      (await res.json()).error.details.issues.some((i: any) => i.field === field),
      path,
    );
  }
  assert.equal(api.calls.length, 0);
});
