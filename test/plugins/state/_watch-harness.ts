import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { JobContext, Store } from "../../../core/endpoint.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { startTestService } from "../../helpers/service.ts";
import type { Target } from "../../helpers/target-server.ts";

export const alice = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const bob = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

export const page = (headline: string, className = "plain") =>
  `<html><head><style>h1{color:red}</style></head><body><h1 class="${className}">${headline}</h1><p id="price">42</p></body></html>`;

/** A clock the test moves and a store on that clock, shared by any number of instances. */
export function world(start = "2026-11-23T10:00:00Z") {
  let now = new Date(start);
  const store = createMemoryStore(() => now.getTime());
  return {
    store,
    clock: () => now,
    advance: (seconds: number) => void (now = new Date(now.getTime() + seconds * 1000)),
  };
}

export type World = ReturnType<typeof world>;

export async function instance(w: World, target: Target, env: Record<string, string> = {}) {
  const service = await startTestService({
    plugins: ["state"],
    store: w.store,
    now: w.clock,
    egressLoopbackPort: target.port,
    env,
  });
  return {
    ...service,
    /** Runs one tick of the watch job on this instance (the clock must have moved to a new tick). */
    tick: async () => assert.equal(await service.jobs.run("state-watches"), true, "a fresh tick"),
    /** The context a job tick gets, to run the job's work directly (two instances at once). */
    jobContext: (): JobContext => ({
      settings: service.runtime.families.get("state")?.settings,
      credits: {
        issue: () => Promise.reject(new Error("the watch job issues no credit")),
        fund: () => Promise.reject(new Error("the watch job funds no credit")),
      },
      store: service.runtime.store as Store,
      log: service.runtime.log,
      signal: new AbortController().signal,
      now: service.runtime.now,
      egress: {
        fetch: (url, init) => service.runtime.egress.fetch(url, init),
        check: (url) => service.runtime.egress.check(url),
      },
      upstream: () => {
        throw new Error("the watch job calls no upstream");
      },
    }),
  };
}

export interface Received {
  raw: string;
  body: any;
  headers: IncomingHttpHeaders;
  signatureValid: boolean;
}

/**
 * A webhook receiver on the loopback target that checks each delivery's X-Signature against the secret
 * (401 when it does not match), and answers 500 to the first `failFirst` valid deliveries.
 */
export function receiver(target: Target, path: string, failFirst = 0) {
  const got: Received[] = [];
  let secret = "";
  target.set(path, (req, res, raw) => {
    const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`);
    const sent = Buffer.from(String(req.headers["x-signature"] ?? ""));
    const signatureValid = secret !== "" && sent.length === expected.length && timingSafeEqual(sent, expected);
    got.push({ raw, body: JSON.parse(raw), headers: req.headers, signatureValid });
    if (!signatureValid) return void res.writeHead(401).end("bad signature");
    const valid = got.filter((r) => r.signatureValid).length;
    if (valid <= failFirst) return void res.writeHead(500).end("receiver down");
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  return { got, url: target.url(path), useSecret: (s: string) => void (secret = s) };
}
