// Shared by the server (devnet-pay) and the browser (the "try it" panel): how one call of an endpoint is sent.

/**
 * A GET's fields go in the query string (objects and arrays as JSON text, which the runtime parses back),
 * a POST's in a JSON body.
 */
export function requestFor(endpoint, input, base) {
  const url = new URL(endpoint.path, base);
  if (endpoint.method === "POST") {
    return { url: url.href, init: { method: "POST", body: JSON.stringify(input), headers: { "content-type": "application/json" } } };
  }
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(name, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return { url: url.href, init: { method: "GET" } };
}

/** A base64 JSON header (x402 v2 `PAYMENT-REQUIRED`, `PAYMENT-RESPONSE`) as an object; UTF-8 safe. */
export function decodeBase64Json(header) {
  const bytes = Uint8Array.from(atob(header), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}
