import { test } from "node:test";
import assert from "node:assert/strict";
import { bundleService, dataOf, expectFree400, failing, statuses } from "./_bundles.ts";

const NEWS = ["coindesk.rss", "cointelegraph.rss", "decrypt.rss", "theblock.rss"].map((n) => `market/${n}`);
const ONLY = { plugins: ["bundles", "market", "onchain"] };
const NOW = Date.parse("2025-01-15T12:00:00.000Z");
const PEPE = "0x6982508145454Ce325dDbE47a25d4ec3d2311933";
const TOKEN = [
  "goplus.token-security-pepe",
  "honeypot-is.pepe",
  "blockscout.token-pepe",
  "blockscout.token-holders-pepe",
].map((n) => `onchain/${n}`);

test("crypto-dd: price and 30-day history of a symbol; on-chain checks skipped without an address", async (t) => {
  const { service } = await bundleService(
    t,
    ["market/coingecko.simple-price-bitcoin", "market/coingecko.market-chart-bitcoin-30d", ...NEWS],
    ONLY,
  );
  const data = dataOf(await service.call("crypto-dd", { symbol: "BTC" }));
  assert.deepEqual(statuses(data), { price: 200, history: 200, news: 200 });
  assert.deepEqual(
    data.skipped.map((s: any) => s.part),
    ["tokenInfo", "tokenSecurity", "rugCheck", "holders", "repo"],
  );
  const points = data.parts.history.data.series[0].points;
  const expected = Math.round(((points.at(-1).price - points[0].price) / points[0].price) * 10_000) / 100;
  assert.equal(data.summary.change30dPercent, expected);
  assert.equal(data.summary.priceUsd, 99421);
  assert.deepEqual([data.summary.score, data.summary.level, data.summary.redFlags], [0, "low", []]);
});

test("crypto-dd: a token's security, rug score and holders; prices and the node down fail in place", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const CG = "https://docs.coingecko.com/reference/common-errors-rate-limit";
  const { service } = await bundleService(
    t,
    [
      ...TOKEN,
      ...NEWS,
      failing(
        "/coingecko/simple/price?ids=pepe&vs_currencies=usd&include_market_cap=true&include_24hr_vol=true&include_24hr_change=true&include_last_updated_at=true",
        500,
        CG,
      ),
      failing("/defillama-coins/prices/current/coingecko:pepe", 500, "https://api-docs.defillama.com/"),
      failing("/coingecko/coins/pepe/market_chart?vs_currency=usd&days=30", 500, CG),
      failing(
        `/defillama-coins/chart/coingecko:pepe?start=${NOW / 1000 - 30 * 86_400}&span=31&period=1d`,
        500,
        "https://api-docs.defillama.com/",
      ),
    ],
    ONLY,
  );
  const data = dataOf(await service.call("crypto-dd", { symbol: "PEPE", address: PEPE }));
  assert.equal(data.parts.tokenSecurity.status, 200);
  assert.equal(data.parts.rugCheck.status, 200);
  assert.equal(data.parts.holders.status, 200);
  assert.equal(data.parts.tokenInfo.ok, false, "token-info reads a chain node, down in this test");
  assert.ok(!data.parts.price.ok && !data.parts.history.ok);
  assert.equal(data.summary.priceUsd, null);
  const raised = data.parts.rugCheck.data.factors.filter((f: any) => f.raised);
  assert.deepEqual(
    data.summary.redFlags.map((f: any) => f.finding),
    raised.map((f: any) => f.label),
  );
});

test("crypto-dd: a malformed repo or address is a free 400", async (t) => {
  const { api, service } = await bundleService(t, [], ONLY);
  await expectFree400(await service.request("/v1/crypto-dd?symbol=PEPE&repo=not-a-repo"), "repo");
  await expectFree400(await service.request("/v1/crypto-dd?symbol=PEPE&address=0xzz"), "address");
  assert.equal(api.calls.length, 0);
});
