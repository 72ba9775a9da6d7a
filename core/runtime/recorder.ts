import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One recorded exchange with an upstream, in the provider's published response shape. */
export interface Fixture {
  /** Where the provider documents this response shape (or where and when it was recorded). */
  source: string;
  request: {
    method: string;
    /** Path and query; the query's order does not matter. */
    path: string;
    /** When present, the JSON request body must match (key order does not matter). */
    body?: unknown;
  };
  response: {
    status: number;
    headers?: Record<string, string>;
    /** JSON, or a string sent as is. */
    body: unknown;
    delayMs?: number;
  };
}

/** A request as an upstream (or a stand-in for one) received it. */
export interface ServedCall {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

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
  where: { realUrl: string; dir: URL; prefix: string; servedUnder?: string },
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
    source: `recorded from ${new URL(target).origin}${canonicalPath(new URL(target).pathname + new URL(target).search)} on ${new Date().toISOString().slice(0, 10)}`,
    request: {
      method: call.method,
      path: canonicalPath((where.servedUnder ?? "") + call.path),
      ...(call.body ? { body: parseOrText(call.body) } : {}),
    },
    response: {
      status: res.status,
      headers: type ? { "content-type": type } : {},
      body: type.includes("json") ? parseOrText(text) : text,
    },
  };
  // Two JSON-RPC calls share a path: the body's hash keeps their files apart.
  const bodyHash = call.body ? `-${createHash("sha256").update(call.body).digest("hex").slice(0, 8)}` : "";
  const slug =
    `${call.method}-${canonicalPath(call.path)}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 80) + bodyHash;
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

/**
 * A loopback stand-in for several upstreams at once: `/<name>/<path>` goes to `bases[name]` + `<path>`, and each
 * exchange is written to `dir` as a fixture named and served under `/<name>`, as the tests' fixture server serves it.
 */
export async function startRecordingProxy(bases: Record<string, string>, dir: URL) {
  const written: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const [, name = "", rest = ""] = /^\/([^/?]+)(.*)$/.exec(req.url ?? "/") ?? [];
      const base = Object.hasOwn(bases, name) ? bases[name] : undefined;
      if (!base) return res.writeHead(599).end(`no upstream ${name}`);
      const call: ServedCall = {
        method: req.method ?? "GET",
        path: rest || "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      try {
        const fixture = await recordExchange(call, { realUrl: base, dir, prefix: name, servedUnder: `/${name}` });
        written.push(`${name} ${fixture.request.method} ${fixture.request.path}`);
        const { status, headers = {}, body } = fixture.response;
        res.writeHead(status, headers).end(typeof body === "string" ? body : JSON.stringify(body));
      } catch (error) {
        res.writeHead(502).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    written,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
