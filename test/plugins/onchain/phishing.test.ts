import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import phishingCheck from "../../../plugins/onchain/phishing-check.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceWith = (url: string) =>
  startTestService({ plugins: ["onchain"], env: { UPSTREAM_METAMASK_PHISHING_URL: url } });

test("phishing-check: listed, look-alike, allowed and unlisted hosts, with the list fetched once", async (t) => {
  const api = await serveFixtures(t, ["metamask-phishing.config"], { dir });
  const service = await serviceWith(api.url);
  const check = async (url: string) => {
    const out = await service.call(phishingCheck, { url });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    return dataOf(out);
  };
  const listed = await check("https://claim.uniswap-airdrop.app/connect?wallet=1");
  assert.deepEqual(
    [listed.domain, listed.flagged, listed.verdict, listed.match],
    ["claim.uniswap-airdrop.app", true, "phishing", "uniswap-airdrop.app"],
  );
  const lookAlike = await check("metamsk.io");
  assert.deepEqual([lookAlike.verdict, lookAlike.similarTo, lookAlike.flagged], ["look-alike", "metamask.io", true]);
  const lookAlikeByOne = await check("opensae.io");
  assert.equal(lookAlikeByOne.verdict, "not-listed", "two edits away is beyond the tolerance of 1");
  const typo = await check("https://uniswap.orq");
  assert.deepEqual([typo.verdict, typo.similarTo, typo.editDistance], ["look-alike", "uniswap.org", 1]);
  const allowed = await check("https://app.uniswap.org/swap");
  assert.deepEqual([allowed.flagged, allowed.verdict, allowed.match], [false, "allowed", "app.uniswap.org"]);
  const unlisted = await check("example.com");
  assert.deepEqual([unlisted.flagged, unlisted.verdict, unlisted.matchType], [false, "not-listed", null]);
  assert.equal(api.calls.length, 1);
});

test("phishing-check: the list unavailable is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "GitHub raw outage",
        request: { method: "GET", path: "/src/config.json" },
        response: { status: 503, body: "unavailable" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceWith(api.url)).call(phishingCheck, { url: "example.com" });
  assert.equal(out.status, 502);
});

test("phishing-check: bad input is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const res = await (await serviceWith(api.url)).request("/v1/phishing-check?url=javascript:alert(1)");
  assert.equal(res.status, 400);
  assert.ok((await res.json()).error.details.issues.some((i: any) => i.field === "url"));
  assert.equal(api.calls.length, 0);
});
