import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, issuesOf } from "../../helpers/expect.ts";
import ytInfo from "../../../plugins/web/yt-info.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) => startTestService({ plugins: ["web"], env: { UPSTREAM_YOUTUBE_OEMBED_URL: url } });

const forms = [
  "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
  "https://youtu.be/dQw4w9WgXcQ?si=abc",
  "https://www.youtube.com/shorts/dQw4w9WgXcQ",
  "https://www.youtube.com/embed/dQw4w9WgXcQ",
  "m.youtube.com/watch?v=dQw4w9WgXcQ",
  "dQw4w9WgXcQ",
];
for (const form of forms) {
  test(`yt-info: ${form} reads the same video through oEmbed`, async (t) => {
    const oembed = await serveFixtures(t, ["youtube-oembed.dqw4w9wgxcq"], { dir });
    const out = await (await serviceFor(oembed.url)).call(ytInfo, { url: form });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const data = dataOf(out);
    assert.equal(data.videoId, "dQw4w9WgXcQ");
    assert.equal(data.url, "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    assert.equal(data.title, "Rick Astley - Never Gonna Give You Up (Official Video) (4K Remaster)");
    assert.equal(data.author, "Rick Astley");
    assert.equal(data.thumbnailUrl, "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg");
    assert.equal(data.thumbnailWidth, 480);
  });
}

test("yt-info: an unknown video is a 404", async (t) => {
  const oembed = await serveFixtures(t, [
    {
      source: "https://oembed.com/ (2.3.4: 404 Not Found when the provider has no response for the URL)",
      request: {
        method: "GET",
        path: "/oembed?url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3DAAAAAAAAAAA&format=json",
      },
      response: { status: 404, body: "Not Found" },
    },
  ]);
  const out = await (await serviceFor(oembed.url)).call(ytInfo, { url: "AAAAAAAAAAA" });
  assert.equal(out.status, 404);
});

test("yt-info: a failing oEmbed endpoint is a 502", async (t) => {
  const oembed = await serveFixtures(
    t,
    [
      {
        source: "https://oembed.com/",
        request: {
          method: "GET",
          path: "/oembed?url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3DdQw4w9WgXcQ&format=json",
        },
        response: { status: 503, body: "" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(oembed.url)).call(ytInfo, { url: "dQw4w9WgXcQ" });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).details?.upstream, "youtube-oembed");
});

test("yt-info: other sites, private addresses and malformed ids are a 400 and nothing is called", async (t) => {
  const oembed = await serveFixtures(t, []);
  const service = await serviceFor(oembed.url);
  for (const url of [
    "http://10.0.0.1/watch?v=dQw4w9WgXcQ",
    "https://vimeo.com/76979871",
    "https://www.youtube.com/watch?v=short",
    "https://evil.example/youtube.com/watch?v=dQw4w9WgXcQ",
  ]) {
    const out = await service.call(ytInfo, { url });
    assert.equal(out.status, 400, url);
    assert.equal(issuesOf(out)[0].field, "url");
  }
  assert.equal((await service.request("/v1/yt-info?url=abc")).status, 400);
  assert.equal(oembed.calls.length, 0);
});
