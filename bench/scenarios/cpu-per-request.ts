import autocannon from "autocannon";
import { readFileSync } from "node:fs";
import { startServer, type ServerChild } from "../lib/child.ts";
import { capture } from "./ours-unpaid.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

/** Requests per second every server below can sustain (the @x402/hono reference peaks near 9,000 here). */
export const FIXED_RATE = 5000;
const MEASURE_S = 8;
const TICKS_PER_S = 100;

/** User + system CPU of a process (all its threads), in ms, from /proc (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
}

interface Measured {
  target: string;
  requests: number;
  cpuUsPerRequest: number;
}

export async function atFixedRate(target: string, server: ServerChild, path: string): Promise<Measured> {
  const base = { url: server.url + path, connections: 50, overallRate: FIXED_RATE };
  await autocannon({ ...base, duration: 2 });
  const before = cpuMs(server.pid);
  const result = await autocannon({ ...base, duration: MEASURE_S });
  const used = cpuMs(server.pid) - before;
  return { target, requests: result.requests.total, cpuUsPerRequest: (used * 1000) / result.requests.total };
}

async function measureServer(
  ctx: BenchContext,
  name: string,
  env: Record<string, string>,
  target: string,
  path: string,
): Promise<Measured> {
  const server = await startServer(name, env, ctx.nodeArgs(name, "cpu"));
  try {
    return await atFixedRate(target, server, path);
  } finally {
    await server.stop();
  }
}

/**
 * CPU spent per answer at one fixed request rate, every thread of the server process counted. Unlike req/s at
 * full load, it does not depend on how fast the load generator (on the same two cores) can follow.
 */
export const cpuPerRequest: Scenario = {
  id: "cpu",
  async run(ctx) {
    const rows: Measured[] = [];
    rows.push(await measureServer(ctx, "raw-h3", {}, "raw h3, one route returning { ok: true }", "/v1/hash"));
    const ours = await startServer("ours", {}, ctx.nodeArgs("ours", "cpu"));
    let constant: string;
    try {
      rows.push(await atFixedRate("our service, the 402 path (GET /v1/hash?text=hi)", ours, "/v1/hash?text=hi"));
      rows.push(await atFixedRate("our service, the 400 path (GET /v1/hash?algo=nope)", ours, "/v1/hash?algo=nope"));
      constant = await capture(`${ours.url}/v1/hash?text=hi`);
    } finally {
      await ours.stop();
    }
    rows.push(
      await measureServer(
        ctx,
        "h3-constant",
        { CONSTANT_RESPONSE: constant },
        "h3 answering the same 402 as a constant",
        "/v1/hash",
      ),
    );
    rows.push(
      await measureServer(
        ctx,
        "hono-x402",
        { REFERENCE_MODE: "unpaid-only" },
        "@x402/hono, the 402 path",
        "/v1/hash?text=hi",
      ),
    );
    const hono = rows.at(-1)!.cpuUsPerRequest;
    const ours402 = rows[1].cpuUsPerRequest;
    return {
      id: "cpu",
      title: "12. CPU per answer at a fixed rate",
      notes: [
        `Each server alone at ${FIXED_RATE.toLocaleString("en-US")} req/s (autocannon \`overallRate\`, 50 connections), 2 s warm-up, then ${MEASURE_S} s measured; ` +
          "CPU is the server process's user + system time from /proc (every thread: V8's GC helpers included) divided by the answers. " +
          "The servers are the ones of sections 1, 3, 4 and 5.",
      ],
      rows: [],
      table: [
        "| server | answers | CPU per answer (µs) |",
        "|---|---:|---:|",
        ...rows.map((r) => `| ${r.target} | ${r.requests.toLocaleString("en-US")} | ${r.cpuUsPerRequest.toFixed(1)} |`),
        "",
        `@x402/hono spends ${(hono / ours402).toFixed(2)}x the CPU of our 402 path per answer.`,
      ],
      figures: { cpuOurs402Us: ours402, cpuHono402Us: hono },
    };
  },
};
