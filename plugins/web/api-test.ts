import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { decodeBody, mediaType } from "../_shared/page-fetch.ts";
import { timedFetch } from "../_shared/target.ts";

const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
/** Headers that describe the connection, not the request; the HTTP client sets them itself. */
const dropped = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-authorization",
  "proxy-connection",
]);

export default defineEndpoint({
  name: "api-test",
  method: "GET",
  price: "$0.01",
  probes: true,
  summary:
    "Send one HTTP request to an API and check the answer: status against the expected one, latency, headers, body excerpt",
  description:
    "Sends the request through the egress guard (public addresses, ports 80/443, at most 5 redirects, 5 MB). In a query " +
    'string, `headers` is a JSON object, e.g. headers={"authorization":"Bearer x"}. Connection headers (host, ' +
    "content-length, ...) are dropped; authorization and cookies are not sent on to another origin after a redirect. " +
    "`pass` means the status equals `expectedStatus`, or is 2xx when none is given. Never cached. A target that cannot " +
    "be reached is a 502 and is not charged.",
  input: v.object({
    url: urlInput("Endpoint to call"),
    method: v.optional(v.pipe(v.picklist(methods), v.description("HTTP method")), "GET"),
    headers: v.optional(
      v.pipe(
        v.record(
          v.pipe(v.string(), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, "must be a header name")),
          v.pipe(v.string(), v.maxLength(8192)),
        ),
        v.maxEntries(30),
        v.description("Request headers, at most 30"),
      ),
    ),
    body: v.optional(
      v.pipe(v.string(), v.maxLength(100_000), v.description("Request body, sent as is (set content-type in headers)")),
    ),
    expectedStatus: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(599), v.description("Status the call should answer")),
    ),
    maxBodyChars: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(20_000),
        v.description("Characters of the response body to return"),
      ),
      2000,
    ),
  }),
  output: v.object({
    url: v.string(),
    finalUrl: v.string(),
    method: v.picklist(methods),
    status: v.number(),
    expectedStatus: v.nullable(v.number()),
    pass: v.boolean(),
    latencyMs: v.number(),
    redirects: v.array(v.string()),
    headers: v.record(v.string(), v.string()),
    contentType: v.nullable(v.string()),
    bytes: v.number(),
    json: v.pipe(v.boolean(), v.description("The body parses as JSON")),
    bodyExcerpt: v.string(),
    truncated: v.boolean(),
  }),
  example: {
    input: {
      url: "https://api.example.com/v1/items",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name":"pen"}',
      expectedStatus: 201,
    },
    output: {
      url: "https://api.example.com/v1/items",
      finalUrl: "https://api.example.com/v1/items",
      method: "POST",
      status: 201,
      expectedStatus: 201,
      pass: true,
      latencyMs: 212.6,
      redirects: [],
      headers: { "content-type": "application/json", "content-length": "22", location: "/v1/items/42" },
      contentType: "application/json",
      bytes: 22,
      json: true,
      bodyExcerpt: '{"id":42,"name":"pen"}',
      truncated: false,
    },
  },
  async handler({ input, egress }) {
    if (input.body !== undefined && (input.method === "GET" || input.method === "HEAD"))
      throw badRequest(`a ${input.method} request cannot carry a body`, { field: "body" });
    const headers = Object.fromEntries(
      Object.entries(input.headers ?? {}).filter(([name]) => !dropped.has(name.toLowerCase())),
    );
    const { response, ms } = await timedFetch(egress, input.url, { method: input.method, headers, body: input.body });
    const text = decodeBody(response.body, response.headers["content-type"]);
    return {
      url: input.url,
      finalUrl: response.url,
      method: input.method,
      status: response.status,
      expectedStatus: input.expectedStatus ?? null,
      pass:
        input.expectedStatus !== undefined
          ? response.status === input.expectedStatus
          : response.status >= 200 && response.status < 300,
      latencyMs: ms,
      redirects: response.redirects,
      headers: response.headers,
      contentType: mediaType(response.headers["content-type"]) ?? null,
      bytes: response.body.length,
      json: isJson(text),
      bodyExcerpt: text.slice(0, input.maxBodyChars),
      truncated: text.length > input.maxBodyChars,
    };
  },
});

function isJson(text: string): boolean {
  if (text.trim() === "") return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
