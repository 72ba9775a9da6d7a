import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, unavailable, upstreamFailed } from "../../core/runtime/errors.ts";

/** VIES prefixes: ISO codes, except Greece (EL) and Northern Ireland (XI, not ISO). */
const viesPrefixes = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "EL",
  "ES",
  "FI",
  "FR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
  "XI",
];
const isoCountries = [...viesPrefixes.filter((c) => c !== "EL"), "GR"].sort();
const prefixOf = (iso: string) => (iso === "GR" ? "EL" : iso);
const isoOf = (prefix: string) => (prefix === "EL" ? "GR" : prefix);

/** Answers from the member state that mean "ask again later", not "invalid". */
const busy = new Set([
  "MS_UNAVAILABLE",
  "MS_MAX_CONCURRENT_REQ",
  "GLOBAL_MAX_CONCURRENT_REQ",
  "SERVICE_UNAVAILABLE",
  "TIMEOUT",
]);

const o = v.optional;
/** What the code reads of VIES's check-vat-number answer: a verdict, or `userError` naming why there is none. */
const ViesAnswer = v.object({
  isValid: o(v.boolean()),
  requestDate: o(v.string()),
  userError: o(v.string()),
  name: o(v.string()),
  address: o(v.string()),
  requestIdentifier: o(v.string()),
});

/** VIES writes "---" where a member state does not disclose the trader's name or address. */
const disclosed = (value?: string) => (value && value.trim() !== "---" && value.trim() !== "" ? value.trim() : null);

export default defineEndpoint({
  name: "vat-check",
  method: "GET",
  price: "$0.05",
  summary: "Validate an EU VAT number through VIES: valid or not, with the registered name and address",
  description:
    "Asks the EU's VIES service, which relays to the member state's register. Some states do not disclose the name or address (null). When the member state's system is down or busy, the answer is a 503 with Retry-After and nothing is charged. Greece's prefix is EL, Northern Ireland's XI.",
  input: v.object({
    vatNumber: v.pipe(
      v.string(),
      v.regex(
        new RegExp(`^(${viesPrefixes.join("|")})[0-9A-Z+*]{2,12}$`),
        `must be an EU VAT number with its country prefix (${viesPrefixes.join(", ")}), no spaces`,
      ),
      v.description("VAT number with its country prefix, e.g. DE129273398 or EL094014201"),
    ),
    country: v.optional(
      v.pipe(
        v.picklist(isoCountries, `must be one of: ${isoCountries.join(", ")}`),
        v.description(
          "ISO 3166 code of the member state (GR for Greece, XI for Northern Ireland); must agree with the prefix",
        ),
      ),
    ),
  }),
  output: v.object({
    country: v.pipe(v.string(), v.description("ISO code (GR for Greece)")),
    vatNumber: v.pipe(v.string(), v.description("With its VIES prefix")),
    valid: v.boolean(),
    name: v.pipe(
      v.nullable(v.string()),
      v.description("Registered trader name; null when the member state does not disclose it"),
    ),
    address: v.nullable(v.string()),
    requestDate: v.pipe(v.string(), v.description("ISO 8601, as VIES stamps it")),
    consultationNumber: v.pipe(v.nullable(v.string()), v.description("VIES request identifier, when one was issued")),
  }),
  example: {
    input: { vatNumber: "DE129273398", country: "DE" },
    output: {
      country: "DE",
      vatNumber: "DE129273398",
      valid: true,
      name: null,
      address: null,
      requestDate: "2026-11-21T10:31:07.512Z",
      consultationNumber: null,
    },
  },
  cacheTtl: 3600,
  upstreams: ["vies"],
  async handler({ input, upstream }) {
    const prefix = input.vatNumber.slice(0, 2);
    if (input.country && prefixOf(input.country) !== prefix) {
      const message = `country ${input.country} does not match the prefix ${prefix} of vatNumber`;
      throw badRequest(message, { issues: [{ field: "country", message }] });
    }
    const number = input.vatNumber.slice(2);
    const answer = await upstream("vies").json(`/ms/${prefix}/vat/${encodeURIComponent(number)}`, ViesAnswer);
    const state = answer.userError ?? (answer.isValid === true ? "VALID" : answer.isValid === false ? "INVALID" : "");
    if (busy.has(state))
      throw unavailable(
        `The ${isoOf(prefix)} VAT register is not answering through VIES (${state}); try again later`,
        60,
        { upstream: "vies", reason: state },
      );
    if (state === "INVALID_INPUT")
      throw badRequest(`VIES refused ${input.vatNumber} as malformed`, {
        issues: [{ field: "vatNumber", message: "malformed for this member state" }],
      });
    if (state !== "VALID" && state !== "INVALID")
      throw upstreamFailed("vies", `VIES answered ${state || "without a verdict"}`);
    return {
      country: isoOf(prefix),
      vatNumber: input.vatNumber,
      valid: state === "VALID",
      name: disclosed(answer.name),
      address: disclosed(answer.address),
      requestDate: answer.requestDate ?? new Date().toISOString(),
      consultationNumber: disclosed(answer.requestIdentifier),
    };
  },
});
