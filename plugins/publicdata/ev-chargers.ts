import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { Location, placeEntries, resolveLocation } from "./_pr-geocode.ts";
import { limit } from "./_pr-inputs.ts";
import { connectorTypes, OcmPoi, Station, toStation } from "./_pr-open-charge-map.ts";

export default defineEndpoint({
  name: "ev-chargers",
  method: "GET",
  price: "$0.005",
  summary:
    "Electric-vehicle charging stations near coordinates or a place: operator, address, connectors with power, status and cost",
  description:
    "From Open Charge Map, the open worldwide registry of charging locations (contributor data CC BY-SA 4.0, imported data under each provider's licence: attribute Open Charge Map). Give `lat` and `lon`, or `place` (geocoded once). Stations within `radiusKm` come nearest first, up to `limit`; `connector` and `minPowerKw` keep only stations with such a connector. Status is the last reported one, not live availability; costs are free text as contributed. None in range is a 404.",
  input: v.object({
    ...placeEntries,
    radiusKm: v.optional(
      v.pipe(v.number(), v.minValue(0.1), v.maxValue(100), v.description("Search radius around the point, km")),
      5,
    ),
    limit: limit(100, 10, "stations"),
    connector: v.optional(
      v.pipe(
        v.picklist(Object.keys(connectorTypes) as (keyof typeof connectorTypes)[]),
        v.description("Only stations with this connector: type1 (J1772), type2 (Mennekes), ccs1, ccs2, chademo, tesla"),
      ),
    ),
    minPowerKw: v.optional(
      v.pipe(
        v.number(),
        v.minValue(1),
        v.maxValue(1000),
        v.description("Only stations with a connector of at least this power, kW (50 for DC fast charging)"),
      ),
    ),
  }),
  oneOf: [["lat", "lon"], ["place"]],
  output: v.object({
    location: Location,
    stations: v.array(Station),
  }),
  example: {
    input: { lat: 45.5051, lon: -122.675, radiusKm: 1, limit: 2 },
    output: {
      location: { lat: 45.5051, lon: -122.675, name: null, countryCode: null, resolvedFrom: "coordinates" },
      stations: [
        {
          id: 29296,
          name: "Harrison Tower",
          operator: "SemaCharge Network",
          usage: "Public",
          status: null,
          operational: null,
          usageCost: null,
          address: {
            line1: "222 SW Harrison Street",
            line2: null,
            town: "Portland",
            state: "OR",
            postcode: "97201",
            countryCode: "US",
          },
          lat: 45.5097989,
          lon: -122.6794873,
          distanceKm: 0.63,
          points: null,
          connectors: [{ type: "Type 1 (J1772)", powerKw: 3, current: "AC (Single-Phase)", count: 1, status: null }],
          lastVerified: null,
          url: "https://openchargemap.org/site/poi/details/29296",
        },
        {
          id: 144407,
          name: "Park Square",
          operator: null,
          usage: "Public",
          status: "Operational",
          operational: true,
          usageCost: null,
          address: {
            line1: "100 SW Market St",
            line2: null,
            town: "Portland",
            state: "OR",
            postcode: "97201",
            countryCode: "US",
          },
          lat: 45.510792,
          lon: -122.67764,
          distanceKm: 0.67,
          points: null,
          connectors: [{ type: "Type 1 (J1772)", powerKw: 3.7, current: "AC (Single-Phase)", count: 6, status: null }],
          lastVerified: null,
          url: "https://openchargemap.org/site/poi/details/144407",
        },
      ],
    },
  },
  cacheTtl: 6 * 3600,
  upstreams: ["open-charge-map", "open-meteo-geocoding"],
  async handler({ input, upstream }) {
    const location = await resolveLocation(() => upstream("open-meteo-geocoding"), input);
    const pois = await upstream("open-charge-map").json("/v3/poi", v.array(OcmPoi), {
      query: {
        output: "json",
        compact: false,
        verbose: false,
        latitude: location.lat,
        longitude: location.lon,
        distance: input.radiusKm,
        distanceunit: "KM",
        maxresults: input.limit,
        connectiontypeid: input.connector && connectorTypes[input.connector].join(","),
        minpowerkw: input.minPowerKw,
      },
    });
    if (pois.length === 0)
      throw notFound(
        `No charging station within ${input.radiusKm} km of ${location.lat}, ${location.lon} in Open Charge Map`,
      );
    const stations = pois.map((poi) => toStation(poi, location)).sort((a, b) => a.distanceKm - b.distanceKm);
    return { location, stations };
  },
});
