import { after } from "node:test";
import { serve } from "h3";
import type { HttpMethod } from "@agentcash/discovery";
import { startTestService } from "../../helpers/service.ts";

// What the catalogs run on us, with their own libraries (x402scan's discovery, the Bazaar's extension helpers, two
// OpenAPI linters), split over three files so that no one file holds every sweep. Each file serves its own
// service; rate limits are off: a catalog probes every route.
export const service = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: "1000000" } });
const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
await server.ready();
export const origin = server.url!.replace(/\/$/, "");
after(() => Promise.all([server.close(true), service.close()]));

export const openapi = await (await service.request("/openapi.json")).json();
export const paidOperations = Object.entries<Record<string, any>>(openapi.paths).flatMap(([path, item]) =>
  Object.entries<any>(item)
    .filter(([, op]) => op["x-payment-info"])
    .map(([method, op]) => ({ path, method: method.toUpperCase() as HttpMethod, op })),
);

/**
 * A request made only from the OpenAPI document: the parameters' examples, or the body's. `every` also sends the
 * parameters whose example is only in their schema, as a generic sampler does.
 */
export function fromExamples(
  { path, method, op }: (typeof paidOperations)[number],
  { every = false } = {},
): { url: string; init: RequestInit } {
  if (method === "POST") {
    const body = op.requestBody.content["application/json"].example;
    return { url: path, init: { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } } };
  }
  const query = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    const content = p.content?.["application/json"];
    const schema = p.schema ?? content?.schema;
    const example = p.example ?? content?.example ?? (every ? (schema?.examples?.[0] ?? schema?.example) : undefined);
    if (example === undefined) continue;
    query.set(
      p.name,
      p.content ? JSON.stringify(example) : Array.isArray(example) ? example.join(",") : String(example),
    );
  }
  return { url: `${path}?${query}`, init: { method } };
}
