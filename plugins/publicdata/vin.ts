import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { checkDigitValid } from "./_vin-check.ts";

const value = v.optional(v.string());
/** What the code reads of vPIC's flat decode (every value a string, empty when unknown). */
const VpicResult = v.object({
  Make: value,
  ErrorCode: value,
  ErrorText: value,
  Model: value,
  ModelYear: value,
  Trim: value,
  Series: value,
  BodyClass: value,
  VehicleType: value,
  Doors: value,
  EngineCylinders: value,
  DisplacementL: value,
  EngineHP: value,
  FuelTypePrimary: value,
  DriveType: value,
  TransmissionStyle: value,
  Manufacturer: value,
  PlantCity: value,
  PlantCountry: value,
});

const text = (value: string | undefined) => (value?.trim() && value.trim() !== "Not Applicable" ? value.trim() : null);
const Field = v.nullable(v.string());

export default defineEndpoint({
  name: "vin",
  method: "GET",
  price: "$0.005",
  summary: "Decode a 17-character VIN: make, model, year, body, engine, fuel, drive, plant and manufacturer",
  description:
    "From NHTSA's vPIC decoder (US public domain; vehicles sold in the US since 1981, partial data elsewhere). Fields NHTSA does not know are " +
    "null. `checkDigitValid` checks position 9 as North American VINs require. A VIN NHTSA cannot decode at all is a 404.",
  input: v.object({
    vin: v.pipe(
      v.string(),
      v.regex(/^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$/, "17 characters, letters other than I, O and Q, and digits"),
      v.description("Vehicle identification number"),
    ),
    modelYear: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1981),
        v.maxValue(2100),
        v.description("Model year, helps with pre-2010 VINs"),
      ),
    ),
  }),
  output: v.object({
    vin: v.string(),
    checkDigitValid: v.boolean(),
    make: v.string(),
    model: Field,
    modelYear: v.nullable(v.number()),
    trim: Field,
    series: Field,
    bodyClass: Field,
    vehicleType: Field,
    doors: v.nullable(v.number()),
    engine: v.object({ cylinders: v.nullable(v.number()), displacementL: Field, horsepower: Field, fuel: Field }),
    driveType: Field,
    transmission: Field,
    manufacturer: Field,
    plant: v.object({ city: Field, country: Field }),
    notes: v.pipe(
      v.nullable(v.string()),
      v.description("NHTSA's decoding remarks (error codes and text) when not clean"),
    ),
    url: v.pipe(v.string(), v.description("The VIN in NHTSA's decoder")),
  }),
  example: {
    input: { vin: "1HGCM82633A004352" },
    output: {
      vin: "1HGCM82633A004352",
      checkDigitValid: true,
      make: "HONDA",
      model: "Accord",
      modelYear: 2003,
      trim: "EX-V6",
      series: null,
      bodyClass: "Coupe",
      vehicleType: "PASSENGER CAR",
      doors: 2,
      engine: { cylinders: 6, displacementL: "3.0", horsepower: "240", fuel: "Gasoline" },
      driveType: null,
      transmission: "Automatic",
      manufacturer: "AMERICAN HONDA MOTOR CO., INC.",
      plant: { city: "MARYSVILLE", country: "UNITED STATES (USA)" },
      notes: null,
      url: "https://vpic.nhtsa.dot.gov/decoder/Decoder?VIN=1HGCM82633A004352",
    },
  },
  cacheTtl: 30 * 86_400,
  upstreams: ["nhtsa-vpic"],
  async handler({ input, upstream }) {
    const vin = input.vin.toUpperCase();
    const answer = await upstream("nhtsa-vpic").json(
      `/vehicles/DecodeVinValues/${vin}`,
      v.object({ Results: v.array(VpicResult) }),
      {
        query: { format: "json", modelyear: input.modelYear },
      },
    );
    const r: v.InferOutput<typeof VpicResult> = answer.Results[0] ?? {};
    const make = text(r.Make);
    if (!make) throw notFound(`NHTSA could not decode ${vin}: ${text(r.ErrorText) ?? "no data"}`);
    const number = (value: string | undefined) =>
      text(value) && Number.isFinite(Number(value)) ? Number(value) : null;
    return {
      vin,
      checkDigitValid: checkDigitValid(vin),
      make,
      model: text(r.Model),
      modelYear: number(r.ModelYear),
      trim: text(r.Trim),
      series: text(r.Series),
      bodyClass: text(r.BodyClass),
      vehicleType: text(r.VehicleType),
      doors: number(r.Doors),
      engine: {
        cylinders: number(r.EngineCylinders),
        displacementL: text(r.DisplacementL),
        horsepower: text(r.EngineHP),
        fuel: text(r.FuelTypePrimary),
      },
      driveType: text(r.DriveType),
      transmission: text(r.TransmissionStyle),
      manufacturer: text(r.Manufacturer),
      plant: { city: text(r.PlantCity), country: text(r.PlantCountry) },
      notes: r.ErrorCode === "0" ? null : text(r.ErrorText),
      url: `https://vpic.nhtsa.dot.gov/decoder/Decoder?VIN=${vin}`,
    };
  },
});
