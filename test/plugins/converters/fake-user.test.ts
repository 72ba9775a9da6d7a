import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import fakeUser from "../../../plugins/converters/fake-user.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import fakeUserEndpoint from "../../../plugins/converters/fake-user.ts";

const service = await startTestService({ plugins: ["converters"] });

const call = async (input: Record<string, unknown>) => {
  const out = await service.call(fakeUserEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};

test("fake-user: the same seed gives the same users", async () => {
  const a = await call({ seed: 1234, count: 5 });
  const b = await call({ seed: 1234, count: 5 });
  const c = await call({ seed: 1235, count: 5 });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.users, c.users);
  assert.equal(a.seed, 1234);
});

test("fake-user: without a seed, the returned seed reproduces the answer", async () => {
  const first = await call({ count: 3, locale: "fr" });
  assert.ok(Number.isInteger(first.seed) && first.seed >= 0);
  assert.deepEqual(await call({ count: 3, locale: "fr", seed: first.seed }), first);
});

test("fake-user: 50 users with distinct ids and reserved e-mail domains", async () => {
  const { users } = await call({ count: 50, seed: 7 });
  assert.equal(users.length, 50);
  assert.equal(new Set(users.map((u: any) => u.id)).size, 50);
  for (const u of users) {
    assert.match(u.email, /@example\.(com|net|org)$/);
    assert.match(u.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(u.birthdate, /^\d{4}-\d{2}-\d{2}$/);
    const age = (Date.parse("2025-01-01") - Date.parse(u.birthdate)) / (365.25 * 86_400_000);
    assert.ok(age >= 17.9 && age <= 81, `age ${age}`);
    assert.ok(["female", "male"].includes(u.sex));
    assert.ok(u.fullName.includes(u.lastName));
  }
});

const countries = [
  { locale: "en_US", countryCode: "US", country: "United States" },
  { locale: "de", countryCode: "DE", country: "Germany" },
  { locale: "ja", countryCode: "JP", country: "Japan" },
  { locale: "pt_BR", countryCode: "BR", country: "Brazil" },
];
for (const c of countries) {
  test(`fake-user: locale ${c.locale} places users in ${c.country}`, async () => {
    const data = await call({ locale: c.locale, seed: 3, count: 2 });
    assert.equal(data.locale, c.locale);
    assert.equal(data.users.length, 2);
    for (const u of data.users)
      assert.deepEqual([u.address.countryCode, u.address.country], [c.countryCode, c.country]);
  });
}

test("fake-user: the locale changes the names for the same seed", async () => {
  const german = await call({ locale: "de", seed: 9 });
  const japanese = await call({ locale: "ja", seed: 9 });
  assert.notEqual(german.users[0].lastName, japanese.users[0].lastName);
  assert.match(japanese.users[0].lastName, /[\u3040-\u30ff\u4e00-\u9fff]/, "Japanese script");
});

test("fake-user: the documented example is a real call", async () => {
  const out = await service.call(fakeUserEndpoint, fakeUser.example.input);
  assert.deepEqual(dataOf(out), fakeUser.example.output);
});

const bad = [
  { name: "count 0", query: "count=0", field: "count" },
  { name: "count 51", query: "count=51", field: "count" },
  { name: "a locale outside the list", query: "locale=xx", field: "locale" },
  { name: "a negative seed", query: "seed=-1", field: "seed" },
  { name: "a fractional seed", query: "seed=1.5", field: "seed" },
];
for (const c of bad) {
  test(`fake-user: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/fake-user?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("fake-user: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/fake-user?count=2");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "5000");
});
