import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import music from "../../../plugins/publicdata/music.ts";
import musicEndpoint from "../../../plugins/publicdata/music.ts";

const dir = new URL("./fixtures/", import.meta.url);
const docs = "https://developer.apple.com/library/archive/documentation/AudioVideo/Conceptual/iTuneSearchAPI/";
const serviceFor = (url: string) => startTestService({ plugins: ["publicdata"], env: { UPSTREAM_ITUNES_URL: url } });

test("music: a song search gives artist, album, duration, preview and the Apple Music link", async (t) => {
  const api = await serveFixtures(t, ["itunes.ben-frost-nolan"], { dir });
  const out = await (await serviceFor(api.url)).call(musicEndpoint, music.example.input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), music.example.output);
});

test("music: an id is looked up, and an artist comes back as an artist", async (t) => {
  const api = await serveFixtures(t, ["itunes.lookup-tokyo-incidents"], { dir });
  const out = await (await serviceFor(api.url)).call(musicEndpoint, { id: 74570585 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const [artist] = dataOf(out).results;
  assert.deepEqual(
    [artist.type, artist.id, artist.title, artist.genre, artist.album, artist.url],
    [
      "artist",
      74570585,
      "Tokyo Incidents",
      "Rock",
      null,
      "https://music.apple.com/us/artist/tokyo-incidents/74570585?uo=4",
    ],
  );
});

test("music: an unknown id is a 404, a search with no match an empty list", async (t) => {
  const empty = { status: 200, body: { resultCount: 0, results: [] } };
  const api = await serveFixtures(t, [
    {
      source: `${docs}LookupExamples.html (unknown id: resultCount 0)`,
      request: { method: "GET", path: "/lookup?id=1&country=US" },
      response: empty,
    },
    {
      source: `${docs}Searching.html (no match: resultCount 0)`,
      request: { method: "GET", path: "/search?term=xqzzy+vvq&media=music&entity=album&country=GB&limit=10" },
      response: empty,
    },
  ]);
  const service = await serviceFor(api.url);
  assert.equal((await service.call(musicEndpoint, { id: 1 })).status, 404);
  assert.deepEqual(dataOf(await service.call(musicEndpoint, { q: "xqzzy vvq", type: "album", country: "gb" })), {
    count: 0,
    results: [],
  });
  assert.equal(api.calls.length, 2);
});

test("music: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: `${docs}Searching.html`,
        request: { method: "GET", path: "/search?term=lost&media=music&entity=musicArtist&country=US&limit=10" },
        response: { status: 503, body: "unavailable" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(musicEndpoint, { q: "lost", type: "artist" });
  assert.equal(out.status, 502);
});

test("music: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/music"), "q");
  await expectFree400(await service.request("/v1/music?q=abba&id=5"), "id");
  await expectFree400(await service.request("/v1/music?q=abba&type=podcast"), "type");
  await expectFree400(await service.request("/v1/music?q=abba&limit=51"), "limit");
  await expectFree400(await service.request("/v1/music?q=abba&country=USA"), "country");
  assert.equal(api.calls.length, 0);
});
