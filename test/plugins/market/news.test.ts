import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import news from "../../../plugins/market/news.ts";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const feeds = ["coindesk.rss", "cointelegraph.rss", "decrypt.rss", "theblock.rss"];
const paths = ["/coindesk-rss/", "/cointelegraph-rss", "/decrypt-rss", "/theblock-rss"];
const DOWN = "a publisher's feed failing (RSS has no error format: any non-2xx)";

test("news: four feeds merged newest first, a story listed once", async (t) => {
  const { service } = await marketService(t, feeds);
  const data = dataOf(await service.call("news", {}));
  assert.deepEqual(data.sources, {
    answered: ["coindesk-rss", "cointelegraph-rss", "decrypt-rss", "theblock-rss"],
    missing: [],
  });
  assert.deepEqual(
    data.headlines.map((h: any) => `${h.source} ${h.publishedAt}`),
    [
      "CoinDesk 2025-08-18T14:05:00.000Z",
      "Decrypt 2025-08-18T13:00:00.000Z",
      "Cointelegraph 2025-08-18T11:45:10.000Z",
      "CoinDesk 2025-08-18T09:30:00.000Z",
      "The Block 2025-08-18T02:10:00.000Z",
    ],
  );
  assert.deepEqual(data.headlines[0], {
    title: "Bitcoin ETFs Record Largest Weekly Inflows Since July",
    url: "https://www.coindesk.com/markets/2025/08/18/bitcoin-etfs-record-largest-weekly-inflows-since-july",
    source: "CoinDesk",
    publishedAt: "2025-08-18T14:05:00.000Z",
    summary: "U.S. spot bitcoin ETFs took in $1.2 billion over five trading days.",
    author: "Jane Doe",
  });
  // the utm-tagged copy of the Cointelegraph story is dropped
  assert.equal(data.headlines.filter((h: any) => h.source === "Cointelegraph").length, 1);
});

test("news: a feed down is named and the rest answer; limit caps; every feed down is a 502", async (t) => {
  const { service } = await marketService(t, [failing(paths[0], 503, DOWN), ...feeds.slice(1)], { reuse: true });
  const data = dataOf(await service.call("news", { limit: 2 }));
  assert.deepEqual(data.sources.answered, ["cointelegraph-rss", "decrypt-rss", "theblock-rss"]);
  assert.equal(data.sources.missing[0].venue, "coindesk-rss");
  assert.deepEqual(
    data.headlines.map((h: any) => h.source),
    ["Decrypt", "Cointelegraph"],
  );

  const down = await marketService(
    t,
    paths.map((p) => failing(p, 502, DOWN)),
    { reuse: true },
  );
  expectUpstreamFailure(await down.service.call("news", {}));
});

test("news: a feed answering something that is not RSS counts as down", async (t) => {
  const html = {
    source: DOWN,
    request: { method: "GET", path: paths[3] },
    response: { status: 200, body: "<html><body>Just a moment...</body></html>" },
  };
  const { service } = await marketService(t, [...feeds.slice(0, 3), html]);
  const data = dataOf(await service.call("news", {}));
  assert.deepEqual(
    data.sources.missing.map((m: any) => m.venue),
    ["theblock-rss"],
  );
  assert.equal(data.headlines.length, 4);
});

test("news: limit 1-100 checked before any call; default 20, cached 5 min", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/news?limit=0"), "limit");
  await expectFree400(await service.request("/v1/news?limit=101"), "limit");
  await expectFree400(await service.request("/v1/news?limit=abc"), "limit");
  assert.equal(api.calls.length, 0);
  assert.deepEqual(v.parse(news.input, {}), { limit: 20 });
  assert.equal(news.cacheTtl, 300);
});
