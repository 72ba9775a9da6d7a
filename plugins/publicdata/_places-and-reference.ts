import type { EndpointDef } from "../../core/endpoint.ts";

/** Places, time, weather, culture and reference (issue 8), sorted by name. */
export const placesAndReference: EndpointDef<any, any>[] = [];
