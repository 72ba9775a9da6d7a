import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { nearest } from "./_pr-geo.ts";
import { Location, placeEntries, resolveLocation } from "./_pr-geocode.ts";
import { limit } from "./_pr-inputs.ts";
import { boundingBox, IvAnswer, Reading, sitesOf, siteUrl } from "./_pr-usgs-water.ts";

const Site = v.object({
  id: v.pipe(v.string(), v.description("USGS site number")),
  name: v.pipe(v.string(), v.description("As USGS writes it (usually upper case)")),
  lat: v.number(),
  lon: v.number(),
  distanceKm: v.nullable(v.pipe(v.number(), v.description("From the point asked about; null when the site was named"))),
  url: v.pipe(v.string(), v.description("The site's USGS Water Data page")),
  readings: v.array(Reading),
});

export default defineEndpoint({
  name: "water",
  method: "GET",
  price: "$0.005",
  summary:
    "Latest river discharge (ft³/s) and gage height (ft) at USGS stream gages: by site number, coordinates or place name (nearest gages)",
  description:
    "Real-time readings from the USGS National Water Information System (instantaneous values, public domain; United States and territories only). Give `site` (a USGS site number), or `lat` and `lon`, or `place` (geocoded once): the active gages within `radiusKm` are listed nearest first, up to `limit`, and none in range is a 404. Each reading is the latest one USGS holds (gages report every 5 to 60 minutes), with its unit, local time and qualifiers; recent readings are provisional. A gage that sent no value has `value` null.",
  input: v.object({
    site: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{8,15}$/, "must be a USGS site number (8 to 15 digits)"),
        v.description("USGS site number, e.g. 01646500 (Potomac River near Washington, DC)"),
      ),
    ),
    ...placeEntries,
    radiusKm: v.optional(
      v.pipe(v.number(), v.minValue(1), v.maxValue(100), v.description("How far from the point gages may be, km")),
      25,
    ),
    limit: limit(20, 5, "gages"),
  }),
  oneOf: [["site"], ["lat", "lon"], ["place"]],
  output: v.object({
    location: v.nullable(Location),
    sites: v.array(Site),
  }),
  example: {
    input: { site: "03443000" },
    output: {
      location: null,
      sites: [
        {
          id: "03443000",
          name: "FRENCH BROAD RIVER AT BLANTYRE, NC",
          lat: 35.29916667,
          lon: -82.62388889,
          distanceKm: null,
          url: "https://waterdata.usgs.gov/monitoring-location/USGS-03443000/",
          readings: [
            {
              parameter: "00060",
              name: "discharge",
              description: "Discharge, cubic feet per second",
              unit: "ft3/s",
              value: "4250",
              time: "2024-09-30T23:45:00-04:00",
              provisional: false,
              qualifiers: ["A"],
              method: null,
            },
            {
              parameter: "00065",
              name: "gage height",
              description: "Gage height, feet",
              unit: "ft",
              value: "16.42",
              time: "2024-09-30T23:45:00-04:00",
              provisional: false,
              qualifiers: ["A"],
              method: null,
            },
          ],
        },
      ],
    },
  },
  cacheTtl: 15 * 60,
  upstreams: ["usgs-water", "open-meteo-geocoding"],
  async handler({ input, upstream }) {
    const api = upstream("usgs-water");
    const query = { format: "json", parameterCd: "00060,00065" };
    if (input.site !== undefined) {
      const answer = await api.json("/nwis/iv/", IvAnswer, {
        query: { ...query, sites: input.site, siteStatus: "all" },
        notFoundAs404: true,
      });
      const sites = sitesOf(answer);
      if (sites.length === 0) throw notFound(`USGS has no current discharge or gage height at site ${input.site}`);
      return { location: null, sites: sites.map((s) => ({ ...s, distanceKm: null, url: siteUrl(s.id) })) };
    }
    const location = await resolveLocation(() => upstream("open-meteo-geocoding"), input);
    const answer = await api.json("/nwis/iv/", IvAnswer, {
      query: { ...query, bBox: boundingBox(location.lat, location.lon, input.radiusKm), siteStatus: "active" },
      notFoundAs404: true,
    });
    const closest = nearest(sitesOf(answer), location, (s) => [s.lat, s.lon], input.radiusKm, input.limit);
    if (closest.length === 0)
      throw notFound(`No active USGS stream gage within ${input.radiusKm} km of ${location.lat}, ${location.lon}`);
    return {
      location,
      sites: closest.map(({ item, distanceKm }) => ({
        id: item.id,
        name: item.name,
        lat: item.lat,
        lon: item.lon,
        distanceKm,
        url: siteUrl(item.id),
        readings: item.readings,
      })),
    };
  },
});
