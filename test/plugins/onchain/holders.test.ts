import { test } from "node:test";
import assert from "node:assert/strict";
import { loadFixture, serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import tokenHolders from "../../../plugins/onchain/token-holders.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceWith = (url: string) =>
  startTestService({
    plugins: ["onchain"],
    env: { UPSTREAM_BLOCKSCOUT_ETHEREUM_URL: url, UPSTREAM_BLOCKSCOUT_BASE_URL: url },
  });
const PEPE = "0x6982508145454Ce325dDbE47a25d4ec3d2311933";
const blockscout = (path: string, status: number, body: unknown): Fixture => ({
  source: 'https://docs.blockscout.com/api-reference/get-token-info (404 {message: "Not found"})',
  request: { method: "GET", path },
  response: { status, body },
});

test("token-holders: ranked holders with shares of supply, labels and the holder count", async (t) => {
  const api = await serveFixtures(t, ["blockscout.token-pepe", "blockscout.token-holders-pepe"], { dir });
  const out = await (await serviceWith(api.url)).call(tokenHolders, { address: PEPE.toLowerCase(), limit: 2 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.chain, data.symbol, data.type, data.decimals, data.holderCount],
    ["ethereum", "PEPE", "ERC-20", 18, 502118],
  );
  assert.equal(data.holders.length, 2);
  assert.deepEqual(data.holders[0], {
    rank: 1,
    address: "0xF977814e90dA44bFA03b6295A0616a897441aceC",
    balance: "34120135408541234000000000000000",
    balanceFormatted: "34120135408541.234",
    share: 0.081105,
    isContract: false,
    label: "Binance 8",
  });
  assert.deepEqual(
    [data.holders[1].isContract, data.holders[1].label, data.holders[1].share],
    [true, "UniswapV2Pair", 0.000027],
  );
  assert.equal(data.topShare, 0.081132);
  assert.match(data.source, /\/token\/0x6982508145454Ce325dDbE47a25d4ec3d2311933\?tab=holders$/);
});

test("token-holders: a token Blockscout does not know is a 404; an outage a 502", async (t) => {
  const api = await serveFixtures(t, [
    blockscout(`/api/v2/tokens/${PEPE}`, 404, { message: "Not found" }),
    blockscout(`/api/v2/tokens/${PEPE}/holders`, 404, { message: "Not found" }),
  ]);
  assert.equal((await (await serviceWith(api.url)).call(tokenHolders, { address: PEPE, chain: "base" })).status, 404);
});

test("token-holders: a Blockscout outage is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [blockscout(`/api/v2/tokens/${PEPE}`, 503, "busy"), blockscout(`/api/v2/tokens/${PEPE}/holders`, 503, "busy")],
    { reuse: true },
  );
  const out = await (await serviceWith(api.url)).call(tokenHolders, { address: PEPE });
  assert.equal(out.status, 502);
});

test("token-holders: a chain without Blockscout, a bad address or limit is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const [path, field] of [
    [`/v1/token-holders?address=${PEPE}&chain=bsc`, "chain"],
    ["/v1/token-holders?address=pepe", "address"],
    [`/v1/token-holders?address=${PEPE}&limit=51`, "limit"],
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

test("token-holders: with BLOCKSCOUT_PRO_KEY every chain reads Blockscout's PRO API under its chain id, keyed; a chain's own URL still wins", async (t) => {
  const pro = (name: string) =>
    loadFixture(name, dir).then((f) => ({
      ...f,
      source: `${f.source}; https://docs.blockscout.com/devs/pro-api (REST: <base>/<chain id>/api/v2, key as apikey)`,
      request: { ...f.request, path: `/1${f.request.path}` },
    }));
  const api = await serveFixtures(t, [await pro("blockscout.token-pepe"), await pro("blockscout.token-holders-pepe")]);
  const own = await serveFixtures(t, ["blockscout.token-pepe", "blockscout.token-holders-pepe"], { dir });
  const service = await startTestService({
    plugins: ["onchain"],
    env: { BLOCKSCOUT_PRO_KEY: "proapi_test", BLOCKSCOUT_PRO_URL: api.url, UPSTREAM_BLOCKSCOUT_BASE_URL: own.url },
  });
  const out = await service.call(tokenHolders, { address: PEPE, limit: 2 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.equal(dataOf(out).holders[0].label, "Binance 8");
  assert.equal(api.calls.length, 2);
  assert.ok(api.calls.every((c) => new URL(c.path, api.url).searchParams.get("apikey") === "proapi_test"));
  assert.ok(api.calls.every((c) => c.path.startsWith("/1/api/v2/tokens/")));
  assert.equal(own.calls.length, 0);
  assert.equal((await service.call(tokenHolders, { address: PEPE, limit: 2, chain: "base" })).status, 200);
  assert.equal(own.calls.length, 2);
  assert.ok(own.calls.every((c) => !c.path.includes("apikey")));
});

test("BLOCKSCOUT_PRO_URL that is not an http(s) URL refuses boot", async () => {
  await assert.rejects(
    startTestService({ plugins: ["onchain"], env: { BLOCKSCOUT_PRO_KEY: "proapi_x", BLOCKSCOUT_PRO_URL: "ftp://x" } }),
    /BLOCKSCOUT_PRO_URL: must be an http\(s\) URL/,
  );
});
