import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One canned answer of the local test site. */
export interface Page {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for a caller's target. Pages can be set per test; every
 * request is recorded so a test can prove that nothing was fetched.
 */
export async function startSite(pages: Record<string, Page> = {}) {
  const routes = new Map(Object.entries(pages));
  const hits: { method: string; path: string; headers: Record<string, string | string[] | undefined> }[] = [];
  const server = createServer((req, res) => {
    hits.push({ method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers });
    const page = routes.get(req.url ?? "/");
    if (!page) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    res.writeHead(page.status ?? 200, { "content-type": "text/html; charset=utf-8", ...page.headers });
    res.end(req.method === "HEAD" ? undefined : page.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    set: (path: string, page: Page) => void routes.set(path, page),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export type Site = Awaited<ReturnType<typeof startSite>>;
