import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import airdropCheck from "../../../plugins/onchain/airdrop-check.ts";

const dir = new URL("./fixtures/", import.meta.url);
const TRADER = "0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE";
const FRESH = "0x5B38Da6a701c568545dCfcB03FcB875f56beddC4";
const now = () => new Date("2025-02-14T00:00:00Z");
const serviceWith = (url: string) =>
  startTestService({
    plugins: ["onchain"],
    now,
    env: { UPSTREAM_BLOCKSCOUT_ETHEREUM_URL: url, UPSTREAM_BLOCKSCOUT_BASE_URL: url },
  });
const notFound = (path: string): Fixture => ({
  source:
    'https://docs.blockscout.com/api-reference/get-address-transactions (an address Blockscout never indexed: 404 {message: "Not found"})',
  request: { method: "GET", path },
  response: { status: 404, body: { message: "Not found" } },
});

test("airdrop-check: every criterion with value, threshold, points and source; a canonical bridge recognised", async (t) => {
  const api = await serveFixtures(
    t,
    ["blockscout.counters-trader", "blockscout.transactions-sent-trader", "blockscout.token-transfers-trader"],
    { dir },
  );
  const out = await (await serviceWith(api.url)).call(airdropCheck, { address: TRADER.toLowerCase() });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  const byId = Object.fromEntries(data.criteria.map((c: any) => [c.id, c]));
  assert.deepEqual(
    data.criteria.map((c: any) => [c.id, c.value, c.points]),
    [
      ["walletAge", 401.6, 15],
      ["transactions", 9, 1],
      ["activeMonths", 6, 15],
      ["activeDays", 6, 2],
      ["distinctContracts", 3, 2],
      ["bridges", 1, 15],
      ["tokenVolume", 364.91, 1],
    ],
  );
  assert.deepEqual([data.address, data.score, data.band], [TRADER, 51, "strong"]);
  assert.deepEqual([byId.walletAge.met, byId.transactions.met, byId.transactions.threshold], [true, false, 100]);
  assert.match(byId.walletAge.explanation, /2024-01-09/);
  assert.match(byId.distinctContracts.explanation, /every transaction it sent/);
  assert.deepEqual(
    data.bridgesUsed.map((b: any) => [b.name, b.contract, b.transactions]),
    [["Base L1StandardBridge", "0x3154Cf16ccdb4C6d922629664174b904d80F2C35", 1]],
  );
  assert.deepEqual(data.activity, {
    firstSentAt: "2024-01-09T10:15:23.000Z",
    lastSentAt: "2025-02-03T14:20:47.000Z",
    sentTransactionsRead: 7,
    tokenTransfersRead: 5,
    complete: true,
  });
  assert.ok(
    data.criteria.every((c: any) => c.source.startsWith(`${api.url}/address/${TRADER}`) && c.explanation.length > 20),
  );
  assert.match(data.notice, /not a claim checker/);
  assert.equal(api.calls.length, 3, "each list read once, no oldest-first page for a short history");
});

test("airdrop-check: past the window, the first sent transaction comes from one oldest-first page", async (t) => {
  const sample = (await import("./fixtures/blockscout.transactions-sent-trader.json", { with: { type: "json" } }))
    .default.response.body.items[0];
  const page = (n: number) =>
    Array.from({ length: 50 }, (_, i) => ({
      ...sample,
      hash: `0x${(n * 50 + i).toString(16).padStart(64, "0")}`,
      timestamp: new Date(Date.UTC(2025, 1, 3) - (n * 50 + i) * 3_600_000).toISOString(),
    }));
  const base = `/api/v2/addresses/${TRADER}/transactions?filter=from`;
  const listed = (path: string, items: unknown[], next: Record<string, unknown> | null): Fixture => ({
    source: "https://docs.blockscout.com/api-reference/get-address-transactions",
    request: { method: "GET", path },
    response: { status: 200, body: { items, next_page_params: next } },
  });
  const cursor = (n: number) => ({ block_number: 21_000_000 - n, index: 0, items_count: 50 * n });
  const pages = [0, 1, 2, 3, 4].map((n) =>
    listed(n ? `${base}&block_number=${21_000_000 - n}&index=0&items_count=${50 * n}` : base, page(n), cursor(n + 1)),
  );
  const oldest = { ...sample, timestamp: "2021-06-01T00:00:00.000000Z" };
  const api = await serveFixtures(
    t,
    [
      "blockscout.counters-trader",
      "blockscout.token-transfers-trader",
      ...pages,
      listed(`${base}&sort=block_number&order=asc`, [oldest], cursor(1)),
    ],
    { dir },
  );
  const data = dataOf(await (await serviceWith(api.url)).call(airdropCheck, { address: TRADER }));
  assert.deepEqual(
    [data.activity.firstSentAt, data.activity.sentTransactionsRead, data.activity.complete],
    ["2021-06-01T00:00:00.000Z", 250, false],
  );
  assert.match(
    data.criteria.find((c: any) => c.id === "activeDays")!.explanation,
    /latest 250 transactions sent .*lower bound/,
  );
  assert.equal(api.calls.length, 8);
});

test("airdrop-check: a wallet Blockscout has never seen answers empty activity and a zero score", async (t) => {
  const api = await serveFixtures(t, [
    notFound(`/api/v2/addresses/${FRESH}/counters`),
    notFound(`/api/v2/addresses/${FRESH}/transactions?filter=from`),
    notFound(`/api/v2/addresses/${FRESH}/token-transfers?type=ERC-20`),
  ]);
  const out = await (await serviceWith(api.url)).call(airdropCheck, { address: FRESH, chain: "base" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.chain, data.score, data.band, data.bridgesUsed, data.activity.firstSentAt],
    ["base", 0, "low", [], null],
  );
  assert.deepEqual(
    data.criteria.map((c: any) => c.value),
    [null, 0, 0, 0, 0, 0, 0],
  );
  assert.match(data.criteria[0].explanation, /never sent a transaction/);
});

test("airdrop-check: a Blockscout outage is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "outage",
        request: { method: "GET", path: `/api/v2/addresses/${TRADER}/counters` },
        response: { status: 503, body: "busy" },
      },
      "blockscout.transactions-sent-trader",
      "blockscout.token-transfers-trader",
    ],
    { dir, reuse: true },
  );
  const out = await (await serviceWith(api.url)).call(airdropCheck, { address: TRADER });
  assert.equal(out.status, 502, JSON.stringify(out.body));
});

test("airdrop-check: a bad address or a chain without Blockscout is a free 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const [path, field] of [
    [`/v1/airdrop-check?address=${TRADER}&chain=bsc`, "chain"],
    ["/v1/airdrop-check?address=0x12", "address"],
    ["/v1/airdrop-check", "address"],
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
