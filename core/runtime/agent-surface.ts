import type { Endpoint } from "../endpoint.ts";
import { isFree } from "../shared.ts";

/** A route under `/<family>/api/` serves one of the family's pages (a free play, a widget's quote), not agents. */
export const isPageRoute = (e: Endpoint) => /^\/[a-z0-9-]+\/api\//.test(e.path);

/** The endpoints every agent-facing document lists: all loaded ones but the pages' own routes. */
export const agentEndpoints = (endpoints: readonly Endpoint[]) => endpoints.filter((e) => !isPageRoute(e));

/** The one count every surface states: agent endpoints, and how many of them are paid. */
export function countLine(endpoints: readonly Endpoint[]): string {
  const agents = agentEndpoints(endpoints);
  return `${agents.length} endpoints, ${agents.filter((e) => !isFree(e)).length} of them paid`;
}
