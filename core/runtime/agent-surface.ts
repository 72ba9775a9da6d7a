import type { Endpoint } from "../endpoint.ts";
import { agentEndpoints, isFree } from "../shared.ts";

/** The one count every surface states: agent endpoints, and how many of them are paid. */
export function countLine(endpoints: readonly Endpoint[]): string {
  const agents = agentEndpoints(endpoints);
  return `${agents.length} endpoints, ${agents.filter((e) => !isFree(e)).length} of them paid`;
}
