import { randomBytes, randomUUID } from "node:crypto";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

/** RFC 9562 UUIDv7: 48-bit unix milliseconds, version 7, 74 random bits with the variant. */
function uuidV7(ms: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export default defineEndpoint({
  name: "uuid",
  method: "GET",
  price: "$0.001",
  summary: "Generate up to 100 random UUIDs (v4, or time-ordered v7)",
  description:
    "v7 UUIDs of one call share the current millisecond and are returned in ascending order, so they sort as generated.",
  input: v.object({
    count: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("How many UUIDs, 1-100")),
      1,
    ),
    version: v.optional(
      v.pipe(v.picklist(["v4", "v7"]), v.description("v4 (random, default) or v7 (unix-time ordered)")),
      "v4",
    ),
  }),
  output: v.object({
    version: v.picklist(["v4", "v7"]),
    uuids: v.array(v.pipe(v.string(), v.regex(uuidPattern))),
  }),
  example: {
    input: { count: 2, version: "v4" },
    output: { version: "v4", uuids: ["3b241101-e2bb-4255-8caf-4136c566a962", "9c5b94b1-35ad-49bb-b118-8e8fc24abf80"] },
  },
  handler({ input, now }) {
    const ms = now().getTime();
    const make = input.version === "v7" ? () => uuidV7(ms) : () => randomUUID();
    const uuids = Array.from({ length: input.count }, make);
    if (input.version === "v7") uuids.sort();
    return { version: input.version, uuids };
  },
});
