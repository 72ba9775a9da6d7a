import { toJsonSchema } from "@valibot/to-json-schema";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type * as v from "valibot";
import type { Endpoint } from "../endpoint.ts";
import { schemasOf, type JsonSchema } from "../runtime/schema.ts";
import { toolName, type CatalogTool } from "./catalog-tools.ts";
import { mcpMetaKeys } from "../rails.ts";

/** How a paid tool is paid, in short: the server's instructions and call_endpoint's description say it in full. */
export const howToPay = (price: string) =>
  `Paid: ${price} per call in USDC over x402 (call_endpoint says how); invalid arguments are refused free.`;

/**
 * An LLM tool API (Anthropic's, and Bedrock, Vertex and Azure in front of it) refuses a top-level oneOf,
 * anyOf or allOf in an input schema: a one-of group is said in words instead and checked by the server.
 */
export function toolInputSchema(e: Endpoint): Tool["inputSchema"] {
  const { oneOf, anyOf, allOf, ...input } = schemasOf(e).input;
  return input as Tool["inputSchema"];
}

const oneOfText = (e: Endpoint) =>
  e.oneOf ? `Give exactly one of: ${e.oneOf.map((g) => g.join(" with ")).join(", or ")}.` : undefined;

/**
 * A description for an agent: the endpoint's own text without the operator's notes (environment variables),
 * and routes named as what an agent calls here (a tool, or call_endpoint with the catalog name).
 */
export function forAgents(text: string, toolOf: (name: string) => string | undefined): string {
  return text
    .split(/(?<=\.)\s+/)
    .filter((sentence) => !/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/.test(sentence))
    .join(" ")
    .replace(/\/v1\/([a-z0-9/-]+[a-z0-9])/g, (_, name: string) =>
      toolOf(name) ? `the ${toolOf(name)} tool` : `${name} (call_endpoint)`,
    );
}

/**
 * A paid endpoint as a tool. Only endpoints without side effects are flagged `mcp`, so every paid tool is
 * announced read-only; it is open-world when it reaches upstream APIs or caller-named hosts. It declares no
 * output schema: its structuredContent is the answer or, unpaid, the PaymentRequired, and the answers'
 * schemas (describe_endpoint gives them) would triple the size of tools/list, which a client sends to its model.
 */
export function paidTool(e: Endpoint, toolOf: (name: string) => string | undefined): Tool {
  const description = [
    `${e.summary}.`,
    e.description && forAgents(e.description, toolOf),
    oneOfText(e),
    howToPay(e.price),
  ]
    .filter(Boolean)
    .join(" ");
  return {
    name: toolName(e),
    title: e.summary,
    description,
    inputSchema: toolInputSchema(e),
    annotations: { readOnlyHint: true, openWorldHint: Boolean(e.probes || e.upstreams?.length) },
  };
}

/** The tool that reaches the whole catalog: any endpoint by name, priced as that endpoint. */
export function callEndpointTool(count: number): Tool {
  return {
    name: "call_endpoint",
    title: "Call any catalog endpoint by name",
    description:
      `Calls any of the ${count} catalog endpoints by its catalog name with its arguments, priced as that endpoint (search_catalog finds one, describe_endpoint gives its arguments, price and an example). ` +
      "A free endpoint answers at once. A paid one, called without payment, returns the x402 PaymentRequired (isError; structuredContent, and the same JSON as the text): " +
      `sign one of its accepts and call again with the same arguments and the PaymentPayload in ${mcpMetaKeys("paymentKey")}; the receipt comes back in ${mcpMetaKeys("receiptKey")}. Invalid arguments are refused free; failures are not charged.`,
    inputSchema: {
      type: "object",
      properties: {
        name: {
          type: "string",
          minLength: 1,
          maxLength: 100,
          description: "Catalog name (bet/quote), tool name or route (/v1/bet/quote)",
        },
        arguments: {
          type: "object",
          description: "The endpoint's arguments, as describe_endpoint gives them: its query parameters or body fields",
          additionalProperties: true,
        },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: { title: "Call any catalog endpoint by name", readOnlyHint: false, openWorldHint: true },
  };
}

export function freeTool(t: CatalogTool): Tool {
  return {
    name: t.name,
    description: t.description,
    inputSchema: jsonSchema(t.input, "input") as Tool["inputSchema"],
    outputSchema: jsonSchema(t.output, "output") as Tool["outputSchema"],
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

function jsonSchema(schema: v.GenericSchema, typeMode: "input" | "output"): JsonSchema {
  const { $schema, ...json } = toJsonSchema(schema, { errorMode: "throw", typeMode, target: "draft-2020-12" });
  return json;
}
