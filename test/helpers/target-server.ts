import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface CannedPage {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  delayMs?: number;
}

export type Route = CannedPage | "hang-up" | ((req: IncomingMessage, res: ServerResponse, body: string) => void);

export interface Hit {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A caller's target on 127.0.0.1: canned pages, handlers, or "hang-up" (the socket is destroyed, a target
 * that fails). Routes match on the path with its query. Every request is recorded in `hits`.
 */
export async function startTarget(routes: Record<string, Route> = {}) {
  const table = new Map(Object.entries(routes));
  const hits: Hit[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const hit = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    hits.push(hit);
    const route = table.get(hit.path);
    if (route === undefined) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    if (route === "hang-up") return void req.socket.destroy();
    if (typeof route === "function") return route(req, res, hit.body);
    if (route.delayMs) await new Promise((resolve) => setTimeout(resolve, route.delayMs));
    res.writeHead(route.status ?? 200, { "content-type": "text/html; charset=utf-8", ...route.headers });
    res.end(req.method === "HEAD" ? undefined : (route.body ?? ""));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    set: (path: string, route: Route) => void table.set(path, route),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Target = Awaited<ReturnType<typeof startTarget>>;
