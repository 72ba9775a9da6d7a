import { bazaarResourceServerExtension, declareDiscoveryExtension } from "@x402/extensions/bazaar";
import type { Endpoint } from "../endpoint.ts";
import { envelope, exampleAnswer, schemasOf, type JsonSchema } from "../runtime/schema.ts";

const built = new WeakMap<Endpoint, Record<string, unknown>>();

/**
 * The 402 carries the extension in its PAYMENT-REQUIRED header and the client echoes it in its payment
 * header, so it has to fit Node's 16 KiB default header limit with room to spare. A route whose full answer
 * schema does not fit gives its top level only, then a shortened example too; /openapi.json has it whole.
 */
const budget = 6000;

/**
 * The Bazaar discovery extension of a paid route, made by `@x402/extensions`' own helper so catalogs that
 * validate it with the same library accept it: the example call (query or body) with the input's JSON Schema,
 * and the example answer with the answer's schema.
 */
export function bazaarOf(endpoint: Endpoint): Record<string, unknown> {
  let extension = built.get(endpoint);
  if (!extension) {
    const { input, output } = schemasOf(endpoint);
    const wrap = (data: JsonSchema) => (endpoint.raw ? data : envelope(data));
    const answers = [
      { example: exampleAnswer(endpoint), schema: wrap(output) },
      { example: exampleAnswer(endpoint), schema: wrap(topLevel(output)) },
      { example: shortened(exampleAnswer(endpoint), 6), schema: wrap(topLevel(output)) },
      { example: shortened(exampleAnswer(endpoint), 3), schema: wrap(topLevel(output)) },
    ];
    // Declared as the x402 server packages declare a route, then given its method as their server extension does per request.
    const http = { method: endpoint.method, adapter: { getPath: () => endpoint.path }, routePattern: endpoint.path };
    const declare = (answer: (typeof answers)[number]) => {
      const declared = declareDiscoveryExtension(
        endpoint.method === "GET"
          ? { input: endpoint.example.input, inputSchema: input, output: answer }
          : { bodyType: "json", input: endpoint.example.input, inputSchema: input, output: answer },
      ).bazaar;
      return bazaarResourceServerExtension.enrichDeclaration!(declared, http) as Record<string, unknown>;
    };
    for (const answer of answers) {
      extension = declare(answer);
      if (JSON.stringify(extension).length <= budget) break;
    }
    built.set(endpoint, extension!);
  }
  return extension!;
}

/** A schema's own type and its properties' types, without what lies deeper. */
function topLevel(schema: JsonSchema): JsonSchema {
  const { type, required, properties } = schema;
  const typeOnly = (p: JsonSchema) => (p.type ? { type: p.type } : {});
  return {
    ...(type ? { type } : {}),
    ...(properties
      ? { properties: Object.fromEntries(Object.entries<JsonSchema>(properties).map(([k, p]) => [k, typeOnly(p)])) }
      : {}),
    ...(required ? { required } : {}),
  };
}

/** The example with each list cut to its first item, long text cut short, and nothing below `depth` levels. */
function shortened(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return depth > 0 ? value.slice(0, 1).map((x) => shortened(x, depth - 1)) : [];
  if (typeof value === "string") return value.length > 200 ? value.slice(0, 200) : value;
  if (value && typeof value === "object")
    return depth > 0 ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortened(v, depth - 1)])) : {};
  return value;
}
