import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import farcasterFeed from "../../../plugins/web/farcaster-feed.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["web"], env: { UPSTREAM_SNAPCHAIN_URL: `${url}/v1` } });
const emptyPage = (path: string): Fixture => ({
  source: "https://snapchain.farcaster.xyz/reference/httpapi/httpapi (paged answers: messages[], nextPageToken)",
  request: { method: "GET", path },
  response: { status: 200, body: { messages: [], nextPageToken: "" } },
});

test("farcaster-feed: casts with ISO times, embeds, mentions and parents, and the profile", async (t) => {
  const hub = await serveFixtures(t, ["snapchain.casts-fid-2", "snapchain.user-data-fid-2"], { dir });
  const out = await (await serviceFor(hub.url)).call(farcasterFeed, { fid: 2, limit: 3 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.profile, {
    username: "v",
    displayName: "Varun Srinivasan",
    pfp: "https://i.example/pfp.png",
    bio: "Technowatermelon. Elder Millenial. Building Farcaster.",
    url: null,
  });
  assert.equal(data.casts.length, 3);
  assert.deepEqual(data.casts[0], {
    hash: "0xd2b1ddc6c88e865a33cb1a565e0058d757042974",
    text: " what do you think?",
    // 48,994,466 s after 2021-01-01T00:00:00Z
    timestamp: "2022-07-22T01:34:26.000Z",
    embeds: [
      { url: "https://example.org/post", fid: null, hash: null },
      { url: null, fid: 5, hash: "0x0b5e9d2f2a41b4f7c8b3d1a0e9f8c7b6a5d4e3f2" },
    ],
    mentions: [3],
    parent: { url: null, fid: 226, hash: "0xa48dd46161d8e57725f5e26e34ec19c13ff7f3b9" },
  });
  assert.deepEqual(data.casts[1].parent, {
    url: "chain://eip155:1/erc721:0x5ce2c0e4a2e6e48e3e9bcf4bb7a07ab9d5ec3e1c",
    fid: null,
    hash: null,
  });
  assert.equal(data.casts[2].parent, null);
});

test("farcaster-feed: an fid with no casts and no profile is a 404", async (t) => {
  const hub = await serveFixtures(t, [
    emptyPage("/v1/castsByFid?fid=99999999&pageSize=20&reverse=true"),
    emptyPage("/v1/userDataByFid?fid=99999999"),
  ]);
  const out = await (await serviceFor(hub.url)).call(farcasterFeed, { fid: 99999999 });
  assert.equal(out.status, 404);
});

test("farcaster-feed: a failing node is a 502", async (t) => {
  const hub = await serveFixtures(
    t,
    [
      {
        source: "https://snapchain.farcaster.xyz/reference/httpapi/httpapi",
        request: { method: "GET", path: "/v1/castsByFid?fid=2&pageSize=20&reverse=true" },
        response: { status: 500, body: { errCode: "unavailable", message: "node is syncing" } },
      },
      "snapchain.user-data-fid-2",
    ],
    { dir, reuse: true },
  );
  const out = await (await serviceFor(hub.url)).call(farcasterFeed, { fid: 2 });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).details?.upstream, "snapchain");
});

test("farcaster-feed: bad input is a free 400 and calls nothing", async (t) => {
  const hub = await serveFixtures(t, []);
  const service = await serviceFor(hub.url);
  for (const query of ["", "fid=0", "fid=abc", "fid=2&limit=101", "fid=1.5"]) {
    assert.equal((await service.request(`/v1/farcaster-feed?${query}`)).status, 400, query);
  }
  assert.equal(hub.calls.length, 0);
});
