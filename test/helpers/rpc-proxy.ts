import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

type RpcRequest = { jsonrpc: "2.0"; id: number | string; method: string; params?: unknown[] };
type RpcReply = { jsonrpc: "2.0"; id: number | string; result?: unknown; error?: { code: number; message: string } };

export interface RpcProxy {
  url: string;
  /** Every request carrying a read (anything but eth_sendRawTransaction) waits this long before it is forwarded. */
  readDelayMs: number;
  /** The next `count` requests carrying a send: forwarded, then the connection is dropped without a reply. */
  loseSendReplies(count: number): void;
  /** The next `count` requests carrying a send: dropped before reaching the node, without a reply. */
  swallowSends(count: number): void;
  /** The next `count` sends are answered with a JSON-RPC error and never reach the node. */
  refuseSends(count: number, message?: string): void;
  /** What went through, by method (sends that were swallowed or refused are counted too). */
  calls: Record<string, number>;
  close(): Promise<void>;
}

/** A transaction sent to an EVM node, or to a Solana one. */
const isSend = (r: RpcRequest) => r.method === "eth_sendRawTransaction" || r.method === "sendTransaction";

/**
 * An HTTP JSON-RPC proxy in front of a node, for tests that break the path to the chain on purpose:
 * slow reads, a send whose reply never comes back (after or before it reached the node), a refused send.
 * Single requests and batches both pass through; a batch is broken as a whole, as a dropped connection would.
 */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const faults = { lose: 0, swallow: 0, refuse: 0, refusal: "refused by the test proxy" };
  const calls: Record<string, number> = {};
  const forward = async (body: unknown) => {
    const res = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return res.json() as Promise<RpcReply | RpcReply[]>;
  };

  const server = createServer(async (req, res) => {
    try {
      const parsed = JSON.parse(await bodyOf(req)) as RpcRequest | RpcRequest[];
      const requests = Array.isArray(parsed) ? parsed : [parsed];
      for (const r of requests) calls[r.method] = (calls[r.method] ?? 0) + 1;
      const sends = requests.some(isSend);
      if (requests.some((r) => !isSend(r)) && proxy.readDelayMs > 0) await sleep(proxy.readDelayMs);
      if (sends && faults.swallow > 0) {
        faults.swallow--;
        return req.socket.destroy();
      }
      if (sends && faults.lose > 0) {
        faults.lose--;
        await forward(parsed);
        return req.socket.destroy();
      }
      const refused = new Set<RpcRequest>();
      for (const r of requests) if (isSend(r) && faults.refuse > 0 && faults.refuse--) refused.add(r);
      const passed = requests.filter((r) => !refused.has(r));
      // A single request goes on as one (a node need not take batches: the local Solana chain does not).
      const answered = passed.length ? await forward(Array.isArray(parsed) ? passed : passed[0]) : [];
      const byId = new Map((Array.isArray(answered) ? answered : [answered]).map((a) => [a.id, a]));
      const replies = requests.map((r) =>
        refused.has(r)
          ? { jsonrpc: "2.0", id: r.id, error: { code: -32000, message: faults.refusal } }
          : byId.get(r.id),
      );
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(Array.isArray(parsed) ? replies : replies[0]));
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxy: RpcProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    readDelayMs: 0,
    loseSendReplies: (count) => void (faults.lose = count),
    swallowSends: (count) => void (faults.swallow = count),
    refuseSends: (count, message) => void Object.assign(faults, { refuse: count, refusal: message ?? faults.refusal }),
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}

async function bodyOf(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
