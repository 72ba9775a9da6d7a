import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import dictionaryEndpoint from "../../../plugins/publicdata/dictionary.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["publicdata"], env: { UPSTREAM_FREE_DICTIONARY_URL: url } });

test("dictionary: definitions, pronunciation and an https audio link", async (t) => {
  const api = await serveFixtures(t, ["free-dictionary.serendipity"], { dir });
  const out = await (await serviceFor(api.url)).call(dictionaryEndpoint, { word: "Serendipity", maxDefinitions: 1 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.phonetic, "/ˌsɛɹ.ənˈdɪp.ɪ.ti/");
  assert.equal(data.audio, "https://api.dictionaryapi.dev/media/pronunciations/en/serendipity-us.mp3");
  assert.equal(data.meanings[0].partOfSpeech, "noun");
  assert.equal(data.meanings[0].definitions.length, 1);
  assert.deepEqual(data.meanings[0].synonyms, ["chance", "fluke"]);
  assert.match(data.licence, /CC BY-SA 3\.0/);
});

test("dictionary: an unknown word is a 404", async (t) => {
  const api = await serveFixtures(t, ["free-dictionary.not-found"], { dir });
  const out = await (await serviceFor(api.url)).call(dictionaryEndpoint, { word: "xqzzyplonk" });
  assert.equal(out.status, 404);
  assert.equal(errorOf(out).code, "not_found");
});

test("dictionary: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://dictionaryapi.dev/",
        request: { method: "GET", path: "/entries/en/serendipity" },
        response: { status: 500, body: "error" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(dictionaryEndpoint, { word: "serendipity" });
  assert.equal(out.status, 502);
});

test("dictionary: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/dictionary"), "word");
  await expectFree400(await service.request("/v1/dictionary?word=..%2Fadmin"), "word");
  await expectFree400(await service.request("/v1/dictionary?word=cat&maxDefinitions=0"), "maxDefinitions");
  assert.equal(api.calls.length, 0);
});
