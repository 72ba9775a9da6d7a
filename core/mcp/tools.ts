import { toJsonSchema } from "@valibot/to-json-schema";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type * as v from "valibot";
import type { Endpoint } from "../endpoint.ts";
import { envelope } from "../runtime/openapi.ts";
import { schemasOf, type JsonSchema } from "../runtime/schema.ts";
import { toolName, type CatalogTool } from "./catalog-tools.ts";
import { paymentMetaKey } from "./results.ts";

/**
 * What a paid tool's `structuredContent` is: the answer's `{meta, data}` envelope, or, in an error result,
 * the x402 v2 PaymentRequired. Both are in the schema because clients (the SDK's among them) check
 * `structuredContent` against it even in error results.
 */
const paymentRequired: JsonSchema = {
  type: "object",
  description: "x402 v2 PaymentRequired, answered with isError until the call is paid",
  required: ["x402Version", "error", "accepts"],
  properties: {
    x402Version: { const: 2 },
    error: { type: "string" },
    resource: { type: "object", properties: { url: { type: "string" }, description: { type: "string" }, mimeType: { type: "string" } } },
    accepts: {
      type: "array",
      items: {
        type: "object",
        required: ["scheme", "network", "amount", "asset", "payTo", "maxTimeoutSeconds"],
        properties: {
          scheme: { type: "string" },
          network: { type: "string" },
          amount: { type: "string" },
          asset: { type: "string" },
          payTo: { type: "string" },
          maxTimeoutSeconds: { type: "number" },
          extra: { type: "object" },
        },
      },
    },
    extensions: { type: "object" },
    reason: { type: "string", description: "Why a payment was refused (the same reasons as over HTTP)" },
    creditCode: { type: "string", description: "Where the value of an unsettled transfer is credited" },
  },
};

/**
 * A paid endpoint as a tool. Only endpoints without side effects are flagged `mcp`, so every paid tool is
 * announced read-only; it is open-world when it reaches upstream APIs or caller-named hosts.
 */
export function paidTool(e: Endpoint): Tool {
  const { input, output } = schemasOf(e);
  const description = [
    e.summary + ".",
    e.description,
    `Costs ${e.price} per call in USDC over x402: call without payment to get the requirements, then again with the PaymentPayload in _meta["${paymentMetaKey}"]. Bad input is refused before payment; failures are not charged.`,
  ].filter(Boolean).join(" ");
  return {
    name: toolName(e),
    title: e.summary,
    description,
    inputSchema: input as Tool["inputSchema"],
    ...(e.raw ? {} : { outputSchema: { type: "object", anyOf: [envelope(output), paymentRequired] } }),
    annotations: { title: e.summary, readOnlyHint: true, openWorldHint: Boolean(e.probes || e.upstreams?.length) },
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
