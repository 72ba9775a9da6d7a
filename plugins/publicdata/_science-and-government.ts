import type { EndpointDef } from "../../core/endpoint.ts";

/** Science, health, government and economy (issue 7), sorted by name. */
export const scienceAndGovernment: EndpointDef<any, any>[] = [];
