import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import ptYtRates from "../../../plugins/market/pt-yt-rates.ts";
import { dataOf, dir, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";
import { loadFixture } from "../../helpers/fixtures.ts";
import ptYtRatesEndpoint from "../../../plugins/market/pt-yt-rates.ts";

const NOW = Date.parse("2025-09-10T12:00:00.000Z");
const LIST = "/pendle/v2/markets/all?chainId=1&limit=100";

test("pt-yt-rates: ethereum by default, expired and deactivated markets left out, deepest first", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service, api } = await marketService(t, ["pendle.markets-ethereum"]);
  const data = dataOf(await service.call(ptYtRatesEndpoint, {}));
  assert.equal(api.calls.length, 1);
  assert.equal(data.chainId, 1);
  assert.equal(data.matched, 3);
  assert.deepEqual(
    data.markets.map((m: any) => m.name),
    ["USDe", "sUSDe", "wstUSR"],
  );
  assert.deepEqual(data.markets[1], ptYtRates.example.output.markets[0]);
});

test("pt-yt-rates: market filters by name or address, limit caps the list", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, ["pendle.markets-ethereum"], { reuse: true });
  assert.deepEqual(
    dataOf(await service.call(ptYtRatesEndpoint, { market: "wstusr" })).markets.map((m: any) => m.name),
    ["wstUSR"],
  );
  assert.equal(
    dataOf(await service.call(ptYtRatesEndpoint, { market: "0xA36B60A14A1A5247912584768C6E53E1A269A9F7" })).matched,
    1,
  );
  const one = dataOf(await service.call(ptYtRatesEndpoint, { limit: 1 }));
  assert.equal(one.markets.length, 1);
  assert.equal(one.matched, 3);
});

test("pt-yt-rates: every page of Pendle's list is read, a live market on the second page included", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const recorded = await loadFixture("pendle.markets-ethereum", dir);
  const [sUSDe] = (recorded.response.body as any).markets;
  // A full first page of markets that expired in 2024, each at its own address.
  const expired = Array.from({ length: 100 }, (_, i) => {
    const address = `0x${createHash("sha256").update(`pendle-expired-${i}`).digest("hex").slice(0, 40)}`;
    return { ...sUSDe, id: `1-${address}`, address, simpleName: `old${i}`, expiry: "2024-06-27T00:00:00.000Z" };
  });
  const page = (skip: number, markets: unknown[]) => ({
    source: recorded.source,
    request: { method: "GET", path: `${LIST}&skip=${skip}` },
    response: { status: 200, body: { total: 101, limit: 100, skip, markets } },
  });
  const { service, api } = await marketService(t, [page(0, expired), page(100, [sUSDe])]);
  const data = dataOf(await service.call(ptYtRatesEndpoint, {}));
  assert.equal(api.calls.length, 2);
  assert.equal(data.matched, 1);
  assert.deepEqual(data.markets, ptYtRates.example.output.markets);
});

test("pt-yt-rates: Pendle down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing(
        "/pendle/v2/markets/all?chainId=42161&limit=100&skip=0",
        500,
        "https://docs.pendle.finance/pendle-v2-dev/Quickstart",
      ),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call(ptYtRatesEndpoint, { chain: "arbitrum" }));
});

test("pt-yt-rates: chain, limit 1-100 and market are checked before any call", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/pt-yt-rates?chain=solana"), "chain");
  await expectFree400(await service.request("/v1/pt-yt-rates?limit=0"), "limit");
  await expectFree400(await service.request("/v1/pt-yt-rates?limit=101"), "limit");
  await expectFree400(await service.request("/v1/pt-yt-rates?market=%3Cscript%3E"), "market");
  assert.equal(api.calls.length, 0);
});
