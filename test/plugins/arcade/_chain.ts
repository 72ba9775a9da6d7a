import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { AfterHost } from "../../helpers/fixtures.ts";

export interface FakeBlock {
  number: number;
  hash: string;
  timestamp: number;
}

/** A clock the service, the chain and the test share; tests move it. */
export function testClock(start = "2026-11-25T12:00:00Z") {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    advance(ms: number): void {
      at += ms;
    },
    set(iso: string): void {
      at = Date.parse(iso);
    },
  };
}
export type TestClock = ReturnType<typeof testClock>;

const hashOf = (n: number, tag: string) => `0x${createHash("sha256").update(`${tag} block ${n}`).digest("hex")}`;

/**
 * The payment chain as a JSON-RPC node that mines only when the test says so (eth_chainId, eth_blockNumber,
 * eth_getBlockByNumber), with CORS as public nodes answer it. Block hashes are SHA-256 of a tag and the
 * number unless the test picks one; timestamps come from the shared clock.
 */
export async function fakeChain(
  t: AfterHost,
  clock: TestClock,
  options: { chainId?: number; tag?: string; head?: number } = {},
) {
  const chainId = options.chainId ?? 84532;
  const tag = options.tag ?? "test";
  const blocks: FakeBlock[] = [
    {
      number: options.head ?? 1000,
      hash: hashOf(options.head ?? 1000, tag),
      timestamp: Math.floor(clock.now().getTime() / 1000) - 1,
    },
  ];
  const calls: string[] = [];
  let failing = false;
  const head = () => blocks[blocks.length - 1];
  const answer = (method: string, params: unknown[]): unknown => {
    if (method === "eth_chainId") return `0x${chainId.toString(16)}`;
    if (method === "eth_blockNumber") return `0x${head().number.toString(16)}`;
    if (method === "eth_getBlockByNumber") {
      const n = params[0] === "latest" ? head().number : Number(BigInt(String(params[0])));
      const block = blocks.find((b) => b.number === n);
      return block
        ? {
            number: `0x${block.number.toString(16)}`,
            hash: block.hash,
            timestamp: `0x${block.timestamp.toString(16)}`,
            transactions: [],
          }
        : null;
    }
    throw new Error(`unsupported ${method}`);
  };
  const server = createServer(async (req, res) => {
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "content-type",
      "access-control-allow-methods": "POST",
    };
    if (req.method === "OPTIONS") return void res.writeHead(204, cors).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const call = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    calls.push(call.method);
    const body = failing
      ? { jsonrpc: "2.0", id: call.id, error: { code: -32603, message: "Internal error" } }
      : { jsonrpc: "2.0", id: call.id, result: answer(call.method, call.params ?? []) };
    res.writeHead(200, { "content-type": "application/json", ...cors }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    blocks,
    head,
    /** Mines the next block, with a hash of the test's choosing or the tag's. */
    mine(hash?: string): FakeBlock {
      const number = head().number + 1;
      const block = {
        number,
        hash: hash ?? hashOf(number, tag),
        timestamp: Math.max(head().timestamp + 1, Math.floor(clock.now().getTime() / 1000)),
      };
      blocks.push(block);
      return block;
    },
    fail(on: boolean) {
      failing = on;
    },
  };
}
export type FakeChain = Awaited<ReturnType<typeof fakeChain>>;

/** The hash the chain will give block `n` when the test does not pick one. */
export const blockHashOf = (n: number, tag = "test") => hashOf(n, tag);
