import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

const o = v.optional;
/** What the code reads of NHTSA's recallsByVehicle answer: `Count` and `results` always come (0 and empty for no campaign). */
const NhtsaRecall = v.object({
  Manufacturer: v.string(),
  NHTSACampaignNumber: v.string(),
  parkIt: o(v.boolean()),
  parkOutSide: o(v.boolean()),
  overTheAirUpdate: o(v.boolean()),
  ReportReceivedDate: v.string(),
  Component: v.string(),
  Summary: v.string(),
  Consequence: v.string(),
  Remedy: v.string(),
  Notes: o(v.string()),
});
const RecallsAnswer = v.object({ Count: v.number(), results: v.array(NhtsaRecall) });

/** NHTSA writes ReportReceivedDate as DD/MM/YYYY. */
const isoDay = (date: string) => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(date);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
};

const Name = (what: string, example: string) =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(60),
    v.regex(/^[A-Za-z0-9 .&'/-]+$/, `not a ${what}`),
    v.description(`${what}, e.g. ${example}`),
  );

export default defineEndpoint({
  name: "recalls",
  method: "GET",
  price: "$0.005",
  summary: "US vehicle safety recalls for a make, model and model year",
  description:
    "From NHTSA's recalls API (US public domain). Lists every recall campaign for the model and year, newest first; it does not say " +
    "whether one particular VIN is still unrepaired. An unknown model answers an empty list.",
  input: v.object({
    make: Name("make", "Honda"),
    model: Name("model", "Accord"),
    modelYear: v.pipe(v.number(), v.integer(), v.minValue(1949), v.maxValue(2100), v.description("Model year")),
  }),
  output: v.object({
    make: v.string(),
    model: v.string(),
    modelYear: v.number(),
    total: v.number(),
    recalls: v.array(
      v.object({
        id: v.pipe(v.string(), v.description("NHTSA campaign number")),
        manufacturer: v.string(),
        component: v.string(),
        summary: v.string(),
        consequence: v.string(),
        remedy: v.string(),
        notes: v.nullable(v.string()),
        reportReceived: v.pipe(v.nullable(v.string()), v.description("YYYY-MM-DD")),
        parkIt: v.pipe(v.boolean(), v.description("NHTSA advises not to drive the vehicle")),
        parkOutside: v.pipe(
          v.boolean(),
          v.description("NHTSA advises parking outside, away from structures (fire risk)"),
        ),
        overTheAirUpdate: v.boolean(),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { make: "Honda", model: "Accord", modelYear: 2003 },
    output: {
      make: "Honda",
      model: "Accord",
      modelYear: 2003,
      total: 1,
      recalls: [
        {
          id: "19V182000",
          manufacturer: "Honda (American Honda Motor Co.)",
          component: "AIR BAGS:FRONTAL:DRIVER SIDE:INFLATOR MODULE",
          summary:
            "Honda (American Honda Motor Co.) is recalling certain 2001-2007 and 2009 Honda Accord vehicles previously repaired with a replacement air bag inflator. The inflator may rupture upon deployment.",
          consequence:
            "An inflator rupture may result in metal fragments striking the driver or other occupants, resulting in serious injury or death.",
          remedy:
            "Honda will notify owners, and dealers will replace the driver frontal air bag inflator, free of charge.",
          notes:
            "Owners may also contact the National Highway Traffic Safety Administration Vehicle Safety Hotline at 1-888-327-4236.",
          reportReceived: "2019-03-06",
          parkIt: false,
          parkOutside: false,
          overTheAirUpdate: false,
          url: "https://www.nhtsa.gov/recalls?nhtsaId=19V182000",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["nhtsa"],
  async handler({ input, upstream }) {
    const answer = await upstream("nhtsa").json("/recalls/recallsByVehicle", RecallsAnswer, {
      query: { make: input.make, model: input.model, modelYear: input.modelYear },
    });
    const recalls = answer.results
      .map((r) => ({
        id: r.NHTSACampaignNumber,
        manufacturer: r.Manufacturer,
        component: r.Component,
        summary: r.Summary,
        consequence: r.Consequence,
        remedy: r.Remedy,
        notes: r.Notes?.trim() || null,
        reportReceived: isoDay(r.ReportReceivedDate),
        parkIt: r.parkIt === true,
        parkOutside: r.parkOutSide === true,
        overTheAirUpdate: r.overTheAirUpdate === true,
        url: `https://www.nhtsa.gov/recalls?nhtsaId=${r.NHTSACampaignNumber}`,
      }))
      .sort((a, b) => (b.reportReceived ?? "").localeCompare(a.reportReceived ?? ""));
    return { make: input.make, model: input.model, modelYear: input.modelYear, total: recalls.length, recalls };
  },
});
