import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectNotFound,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";
import food from "../../../plugins/publicdata/food.ts";
import foodEndpoint from "../../../plugins/publicdata/food.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_OPENFOODFACTS_URL: url });
const docs = "https://openfoodfacts.github.io/openfoodfacts-server/api/ref-v2/";
const productPath = (barcode: string) =>
  `/api/v2/product/${barcode}.json?fields=product_name,brands,quantity,categories,nutriscore_grade,nova_group,ecoscore_grade,allergens_tags,ingredients_text,image_url,nutriments`;

test("food: a product in our shape, cached for 24 hours", async (t) => {
  const api = await serveFixtures(t, ["openfoodfacts.nutella"], { dir });
  const service = await serviceFor(api.url);
  const data = dataOf(await service.call(foodEndpoint, { barcode: "3017624010701" }));
  assert.deepEqual(data, food.example.output);
  const again = await service.call(foodEndpoint, { barcode: "3017624010701" });
  assert.equal((again.body as any).meta.cached, true);
  assert.equal(api.calls.length, 1);
  assert.equal(food.cacheTtl, 86_400);
});

test("food: an unknown barcode is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (unknown barcode: HTTP 404 with status 0, "product not found")`,
      request: { method: "GET", path: productPath("0000000000000") },
      response: { status: 404, body: { code: "0000000000000", status: 0, status_verbose: "product not found" } },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call(foodEndpoint, { barcode: "0000000000000" }));
});

test("food: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", productPath("3017624010701"), docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call(foodEndpoint, { barcode: "3017624010701" }));
});

test("food: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/food"), "barcode");
  await expectFree400(await service.request("/v1/food?barcode=30176240107x1"), "barcode");
  await expectFree400(await service.request("/v1/food?barcode=123"), "barcode");
  assert.equal(api.calls.length, 0);
});
