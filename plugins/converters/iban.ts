import * as v from "valibot";
import * as ibantools from "ibantools";
import { defineEndpoint } from "../../core/endpoint.ts";
import { lazy } from "../../core/shared.ts";

/** Built on the first call rather than at boot: loading ICU's region names takes about 30 ms. */
const regionNames = lazy(() => new Intl.DisplayNames(["en"], { type: "region" }));
const countryName = (code: string) => {
  try {
    const name = regionNames().of(code);
    return name && name !== code ? name : null;
  } catch {
    return null;
  }
};

/** ibantools sometimes reports an account number that is not part of the BBAN (e.g. Belgium); such a value is dropped. */
const partOf = (bban: string, value: string | undefined) => (value && bban.includes(value) ? value : null);

function checkBic(bic: string, ibanCountry: string) {
  const compact = bic.replace(/\s+/g, "").toUpperCase();
  const checked = ibantools.validateBIC(compact);
  const parts = ibantools.extractBIC(compact);
  return {
    bic: compact,
    valid: checked.valid,
    errors: checked.errorCodes.map((c) => ibantools.ValidationErrorsBIC[c]),
    bankCode: checked.valid ? parts.bankCode! : null,
    countryCode: checked.valid ? parts.countryCode! : null,
    locationCode: checked.valid ? parts.locationCode! : null,
    branchCode: checked.valid ? parts.branchCode : null,
    testBic: checked.valid && parts.testBIC,
    matchesIbanCountry: checked.valid && parts.countryCode === ibanCountry,
  };
}

const nullableString = v.nullable(v.string());

export default defineEndpoint({
  name: "iban",
  method: "GET",
  price: "$0.001",
  summary: "Validate an IBAN and split it into country, check digits, BBAN and bank codes; optionally check a BIC",
  description:
    "Checks the country format, length, mod-97 checksum and, where the country defines one, the national checksum. An invalid IBAN is a normal answer with valid false and the reasons. Bank names are not looked up.",
  input: v.object({
    iban: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(64),
      v.regex(/^[A-Za-z0-9\s-]+$/, "Letters, digits, spaces and dashes only"),
      v.description("IBAN, with or without spaces"),
    ),
    bic: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(20),
        v.description("BIC/SWIFT code to check against the IBAN's country"),
      ),
    ),
  }),
  output: v.object({
    valid: v.boolean(),
    errors: v.pipe(
      v.array(v.string()),
      v.description("ibantools error names, e.g. WrongIBANChecksum, WrongBBANLength"),
    ),
    electronic: v.string(),
    friendly: v.string(),
    countryCode: v.string(),
    countryName: nullableString,
    checkDigits: v.string(),
    bban: v.string(),
    expectedLength: v.pipe(v.nullable(v.number()), v.description("IBAN length for this country")),
    sepa: v.boolean(),
    qrIban: v.pipe(v.boolean(), v.description("Swiss/Liechtenstein QR-IBAN")),
    bankIdentifier: nullableString,
    branchIdentifier: nullableString,
    accountNumber: nullableString,
    bic: v.optional(
      v.object({
        bic: v.string(),
        valid: v.boolean(),
        errors: v.array(v.string()),
        bankCode: nullableString,
        countryCode: nullableString,
        locationCode: nullableString,
        branchCode: nullableString,
        testBic: v.boolean(),
        matchesIbanCountry: v.boolean(),
      }),
    ),
  }),
  example: {
    input: { iban: "DE89 3704 0044 0532 0130 00", bic: "COBADEFFXXX" },
    output: {
      valid: true,
      errors: [],
      electronic: "DE89370400440532013000",
      friendly: "DE89 3704 0044 0532 0130 00",
      countryCode: "DE",
      countryName: "Germany",
      checkDigits: "89",
      bban: "370400440532013000",
      expectedLength: 22,
      sepa: true,
      qrIban: false,
      bankIdentifier: "37040044",
      branchIdentifier: null,
      accountNumber: "0532013000",
      bic: {
        bic: "COBADEFFXXX",
        valid: true,
        errors: [],
        bankCode: "COBA",
        countryCode: "DE",
        locationCode: "FF",
        branchCode: "XXX",
        testBic: false,
        matchesIbanCountry: true,
      },
    },
  },
  handler({ input }) {
    const electronic = ibantools.electronicFormatIBAN(input.iban)!.toUpperCase();
    const checked = ibantools.validateIBAN(electronic);
    const parts = ibantools.extractIBAN(electronic);
    const countryCode = electronic.slice(0, 2);
    const bban = electronic.slice(4);
    const spec = ibantools.getCountrySpecifications()[countryCode];
    return {
      valid: checked.valid,
      errors: checked.errorCodes.map((c) => ibantools.ValidationErrorsIBAN[c]),
      electronic,
      friendly: ibantools.friendlyFormatIBAN(electronic)!,
      countryCode,
      countryName: /^[A-Z]{2}$/.test(countryCode) ? countryName(countryCode) : null,
      checkDigits: electronic.slice(2, 4),
      bban,
      expectedLength: spec?.chars ?? null,
      sepa: spec?.SEPA ?? false,
      qrIban: checked.valid && ibantools.isQRIBAN(electronic),
      bankIdentifier: checked.valid ? partOf(bban, parts.bankIdentifier) : null,
      branchIdentifier: checked.valid ? partOf(bban, parts.branchIdentifier) : null,
      accountNumber: checked.valid ? partOf(bban, parts.accountNumber) : null,
      ...(input.bic === undefined ? {} : { bic: checkBic(input.bic, countryCode) }),
    };
  },
});
