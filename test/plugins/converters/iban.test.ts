import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import ibanEndpoint from "../../../plugins/converters/iban.ts";

const service = await startTestService({ plugins: ["converters"] });

async function iban(input: InputOf<typeof ibanEndpoint>) {
  const out = await service.call(ibanEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
}

const valid = [
  {
    name: "a German IBAN with spaces",
    iban: "DE89 3704 0044 0532 0130 00",
    expect: {
      electronic: "DE89370400440532013000",
      countryCode: "DE",
      countryName: "Germany",
      checkDigits: "89",
      bban: "370400440532013000",
      bankIdentifier: "37040044",
      accountNumber: "0532013000",
      expectedLength: 22,
      sepa: true,
    },
  },
  {
    name: "a British IBAN in lower case with its sort code",
    iban: "gb82west12345698765432",
    expect: {
      electronic: "GB82WEST12345698765432",
      friendly: "GB82 WEST 1234 5698 7654 32",
      countryName: "United Kingdom",
      bankIdentifier: "WEST",
      branchIdentifier: "123456",
    },
  },
  {
    name: "a Dutch IBAN with dashes",
    iban: "NL91-ABNA-0417-1643-00",
    expect: { electronic: "NL91ABNA0417164300", bankIdentifier: "ABNA", accountNumber: "0417164300" },
  },
  { name: "a Swiss QR-IBAN", iban: "CH4431999123000889012", expect: { qrIban: true, countryName: "Switzerland" } },
  {
    name: "a Belgian IBAN, whose bogus account split is dropped",
    iban: "BE68539007547034",
    expect: { bankIdentifier: "539", accountNumber: null },
  },
];
for (const c of valid) {
  test(`iban: ${c.name}`, async () => {
    const data = await iban({ iban: c.iban });
    assert.equal(data.valid, true);
    assert.deepEqual(data.errors, []);
    for (const [key, value] of Object.entries(c.expect)) assert.deepEqual(data[key as keyof typeof data], value, key);
  });
}

const invalid = [
  { name: "a wrong checksum", iban: "NL91ABNA0417164301", errors: ["WrongIBANChecksum"] },
  {
    name: "a wrong length",
    iban: "DE8937040044053201300",
    errors: ["WrongBBANLength", "WrongBBANFormat", "WrongIBANChecksum"],
  },
  { name: "an unknown country", iban: "XX00123456", errors: ["NoIBANCountry"] },
];
for (const c of invalid) {
  test(`iban: ${c.name} is valid false with the reasons`, async () => {
    const data = await iban({ iban: c.iban });
    assert.equal(data.valid, false);
    assert.deepEqual(data.errors, c.errors);
    assert.equal(data.bankIdentifier, null);
  });
}

test("iban: checks a BIC against the IBAN's country", async () => {
  const same = (await iban({ iban: "DE89370400440532013000", bic: "COBADEFFXXX" })).bic;
  assert.deepEqual(same, {
    bic: "COBADEFFXXX",
    valid: true,
    errors: [],
    bankCode: "COBA",
    countryCode: "DE",
    locationCode: "FF",
    branchCode: "XXX",
    testBic: false,
    matchesIbanCountry: true,
  });
  const other = (await iban({ iban: "DE89370400440532013000", bic: "abnanl2a" })).bic!;
  assert.equal(other.valid, true);
  assert.equal(other.bic, "ABNANL2A");
  assert.equal(other.matchesIbanCountry, false);
  const broken = (await iban({ iban: "DE89370400440532013000", bic: "ABN4NL2A" })).bic!;
  assert.equal(broken.valid, false);
  assert.deepEqual(broken.errors, ["WrongBICFormat"]);
});

const bad = [
  { name: "missing iban", query: "", field: "iban" },
  { name: "punctuation in the iban", query: "iban=DE89!3704", field: "iban" },
  { name: "an iban over 64 characters", query: `iban=${"D".repeat(65)}`, field: "iban" },
  { name: "an empty bic", query: "iban=DE89370400440532013000&bic=", field: "bic" },
];
for (const c of bad) {
  test(`iban: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/iban?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("iban: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/iban?iban=DE89370400440532013000");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
