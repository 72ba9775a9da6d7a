import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import cryptoUnits from "../../../plugins/converters/crypto-units.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "ether to wei",
    input: { value: "1", from: "ether", to: "wei" },
    result: "1000000000000000000",
    base: "1000000000000000000",
  },
  {
    name: "wei to ether keeps every digit",
    input: { value: "123456789012345678901", from: "wei", to: "ether" },
    result: "123.456789012345678901",
    base: "123456789012345678901",
  },
  {
    name: "gwei to ether",
    input: { value: "21000", from: "gwei", to: "eth" },
    result: "0.000021",
    base: "21000000000000",
  },
  {
    name: "scientific notation",
    input: { value: "1e18", from: "wei", to: "ether" },
    result: "1",
    base: "1000000000000000000",
  },
  {
    name: "negative amounts",
    input: { value: "-0.5", from: "ether", to: "gwei" },
    result: "-500000000",
    base: "-500000000000000000",
  },
  { name: "btc to sats", input: { value: "0.00012345", from: "btc", to: "sats" }, result: "12345", base: "12345" },
  {
    name: "sats to btc",
    input: { value: "2100000000000000", from: "sat", to: "btc" },
    result: "21000000",
    base: "2100000000000000",
  },
  {
    name: "sol to lamports",
    input: { value: "1.5", from: "sol", to: "lamports" },
    result: "1500000000",
    base: "1500000000",
  },
  {
    name: "token with 6 decimals to base units",
    input: { value: "12.345678", from: "token", to: "base", decimals: 6 },
    result: "12345678",
    base: "12345678",
  },
  {
    name: "base units to a token with 18 decimals",
    input: { value: "5", from: "base", to: "token", decimals: 18 },
    result: "0.000000000000000005",
    base: "5",
  },
  { name: "a leading dot", input: { value: ".25", from: "btc", to: "sats" }, result: "25000000", base: "25000000" },
];
for (const c of cases) {
  test(`crypto-units: ${c.name}`, async () => {
    const out = await service.call(cryptoUnits, c.input as InputOf<typeof cryptoUnits>);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const data = dataOf(out);
    assert.equal(data.result, c.result);
    assert.equal(data.baseUnits, c.base);
  });
}

test("crypto-units: all lists every unit of the chain", async () => {
  const data = dataOf(await service.call(cryptoUnits, { value: "1", from: "btc", to: "sats" }));
  assert.deepEqual(data.all, { sats: "100000000", bits: "1000000", mbtc: "1000", btc: "1" });
});

const refused = [
  { name: "more decimals than wei allow", input: { value: "0.5", from: "wei", to: "ether" }, field: "value" },
  { name: "more than 8 decimals of btc", input: { value: "0.000000001", from: "btc", to: "sats" }, field: "value" },
  { name: "units of different chains", input: { value: "1", from: "ether", to: "btc" }, field: "to" },
  { name: "token without decimals", input: { value: "1", from: "token", to: "base" }, field: "decimals" },
];
for (const c of refused) {
  test(`crypto-units: ${c.name} is a 400 on ${c.field}`, async () => {
    const out = await service.call("crypto-units", c.input);
    assert.equal(out.status, 400);
    assert.ok(
      issuesOf(out).some((i: any) => i.field === c.field),
      JSON.stringify(out.body),
    );
  });
}

const bad = [
  { name: "a value that is no number", query: "value=1,5&from=ether&to=wei", field: "value" },
  { name: "a value with a unit in it", query: "value=1eth&from=ether&to=wei", field: "value" },
  { name: "an unknown unit", query: "value=1&from=ether&to=shannon", field: "to" },
  { name: "missing from", query: "value=1&to=wei", field: "from" },
  { name: "decimals over 77", query: "value=1&from=token&to=base&decimals=78", field: "decimals" },
];
for (const c of bad) {
  test(`crypto-units: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/crypto-units?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("crypto-units: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/crypto-units?value=1&from=ether&to=gwei");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
