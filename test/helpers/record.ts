import { mkdir, writeFile } from "node:fs/promises";
import type { Fixture, ServedCall } from "./fixtures.ts";

/** Query parameters and headers that carry credentials: never matched on, never written to a fixture. */
export const secretNames = new Set(["apikey", "api_key", "key", "token", "x-api-key", "authorization"]);

/** Path with its query sorted and credentials removed, so fixtures match whatever the key. */
export function canonicalPath(path: string): string {
  const at = path.indexOf("?");
  if (at < 0) return path;
  const params = [...new URLSearchParams(path.slice(at + 1))]
    .filter(([name]) => !secretNames.has(name.toLowerCase()))
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  const query = new URLSearchParams(params).toString();
  return query ? `${path.slice(0, at)}?${query}` : path.slice(0, at);
}

/** JSON with object keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/**
 * Record mode: sends the request to the real upstream (credentials and all, so a configured key works),
 * writes the exchange as a fixture without any credential, and returns it to be served.
 */
export async function recordExchange(
  call: ServedCall,
  where: { realUrl: string; dir: URL; prefix: string },
): Promise<Fixture> {
  const target = where.realUrl.replace(/\/+$/, "") + call.path;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers)) {
    if (value === undefined || ["host", "connection", "content-length", "accept-encoding"].includes(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const res = await fetch(target, { method: call.method, headers, body: call.body || undefined });
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  const fixture: Fixture = {
    source: `recorded from ${new URL(target).origin}${new URL(target).pathname} on ${new Date().toISOString().slice(0, 10)}`,
    request: {
      method: call.method,
      path: canonicalPath(call.path),
      ...(call.body ? { body: parseOrText(call.body) } : {}),
    },
    response: {
      status: res.status,
      headers: type ? { "content-type": type } : {},
      body: type.includes("json") ? parseOrText(text) : text,
    },
  };
  const slug = `${call.method}-${canonicalPath(call.path)}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 80);
  const dir = where.dir.href.endsWith("/") ? where.dir : new URL(`${where.dir.href}/`);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL(`${where.prefix}.${slug}.json`, dir), `${JSON.stringify(fixture, null, 2)}\n`);
  return fixture;
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
