import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import dns from "node:dns";
import { loadPlugins } from "../../../core/runtime/load.ts";
import { schemasOf } from "../../../core/runtime/schema.ts";
import type { Endpoint } from "../../../core/endpoint.ts";
import { badInputsFor, rawRequestsFor, toQuery, type BadInput } from "../../helpers/bad-inputs.ts";
import { startTestService } from "../../helpers/service.ts";
import { jsonOrText } from "../../../core/shared.ts";

// Every endpoint gets generated bad input over HTTP and as a prepaid call; none may answer 500.
// Nothing may leave the machine: every upstream (chain nodes included) and DNS server is a closed loopback
// port, and the egress guard's lookups (caller-supplied hosts) answer "does not resolve".
const closed = "http://127.0.0.1:9";
const env: Record<string, string> = {
  DNS_SERVERS: "127.0.0.1:9",
  DUEL_ESCROW_ADDRESS: "0x00000000000000000000000000000000000000d1",
  REVIEWS_OPERATOR_TOKEN: "bad-input-operator-token",
};
for (const [name, entry] of Object.entries((await loadPlugins()).upstreams)) {
  env[`UPSTREAM_${name.toUpperCase().replace(/-/g, "_")}_URL`] = closed;
  if (entry.key) env[entry.key.env] = "bad-input-test-key";
}
/** Operator routes (review moderation) get their token, so bad input reaches their handlers too. */
const operator = { authorization: `Bearer ${env.REVIEWS_OPERATOR_TOKEN}` };
const systemLookup = dns.promises.lookup;
dns.promises.lookup = (async (host: string) => {
  throw Object.assign(new Error(`lookup of ${host} refused in tests`), { code: "ENOTFOUND" });
}) as typeof dns.promises.lookup;

// The first calls of every route land together while each family loads its libraries on first use; on a busy
// machine that can take longer than the production deadline, and this sweep is about answers, not latency.
const service = await startTestService({ env: { ...env, HANDLER_TIMEOUT_MS: "120000" } });
const maxBodyBytes = service.runtime.config.maxBodyBytes;
const payer = "0x00000000000000000000000000000000000000a1";
after(async () => {
  await service.close();
  dns.promises.lookup = systemLookup;
});

/** Endpoints left out, each with the reason; every entry is a known bug to fix. */
const knownFailures = new Map<string, string>([]);

const casesPerEndpoint = 16;
const concurrency = 8;
// 403: a caller the route does not serve (no wallet behind a credit, no proof of work on a free play).
const refusals = new Set([400, 402, 403, 404, 405, 413, 422]);
const fromClosedUpstreams = new Set([502, 503, 504]);

/** A handler that may reach an upstream, a chain node, a caller's target or another endpoint fails 502-504 here. */
const reachesOut = (e: Endpoint) => Boolean(e.upstreams?.length || e.probes || e.composes?.length || e.requires?.length);

function badInputs(e: Endpoint): BadInput[] {
  return badInputsFor(schemasOf(e).input, e.example.input as Record<string, unknown>, casesPerEndpoint);
}

async function problemsOfResponse(label: string, res: Response, handlerMayRun: boolean): Promise<string[]> {
  const text = await res.text();
  if (res.status >= 200 && res.status < 300) return [];
  const problems: string[] = [];
  const allowed = refusals.has(res.status) || (handlerMayRun && fromClosedUpstreams.has(res.status));
  if (!allowed) problems.push(`${label}: status ${res.status} ${text.slice(0, 300)}`);
  if (!res.headers.get("content-type")?.startsWith("application/json")) problems.push(`${label}: content-type ${res.headers.get("content-type")}`);
  // A 402 is the x402 challenge (valid-looking input reaching the paywall), whose body the protocol fixes.
  problems.push(...(res.status === 402 ? challengeProblems(label, jsonOrText(text)) : errorBodyProblems(label, jsonOrText(text))));
  return problems;
}

function errorBodyProblems(label: string, body: any): string[] {
  const error = body?.error;
  const ok = error && typeof error.code === "string" && error.code && typeof error.message === "string" && error.message;
  return ok ? [] : [`${label}: not the JSON error body: ${JSON.stringify(body)?.slice(0, 300)}`];
}

function challengeProblems(label: string, body: any): string[] {
  return Array.isArray(body?.accepts) && body.accepts.length ? [] : [`${label}: a 402 without payment requirements: ${JSON.stringify(body)?.slice(0, 300)}`];
}

function overHttp(e: Endpoint, bad: BadInput): Promise<Response> | undefined {
  if (e.method === "POST") {
    return service.request(e.path, { method: "POST", body: JSON.stringify(bad.input) ?? "null", headers: { ...operator, "content-type": "application/json" } });
  }
  const query = toQuery(bad.input);
  return query === undefined ? undefined : service.request(`${e.path}?${query}`, { headers: operator });
}

const free = (e: Endpoint) => Number(e.price.slice(1)) === 0;
const endpoints = service.runtime.endpoints.filter((e) => e.family !== "core");

describe("bad input over HTTP: refused with the JSON error body, never a 5xx", { concurrency }, () => {
  for (const e of endpoints) {
    it(`${e.method} ${e.path}`, { skip: knownFailures.get(e.name) }, async () => {
      const problems: string[] = [];
      for (const bad of badInputs(e)) {
        const res = await overHttp(e, bad);
        if (res) problems.push(...(await problemsOfResponse(bad.label, res, free(e) && reachesOut(e))));
      }
      const fields = Object.keys(schemasOf(e).input.properties ?? {});
      for (const raw of rawRequestsFor(e.method, fields, maxBodyBytes)) {
        const res = raw.query !== undefined
          ? await service.request(`${e.path}?${raw.query}`, { headers: operator })
          : await service.request(e.path, { method: "POST", body: raw.body, headers: { ...operator, "content-type": "application/json" } });
        problems.push(...(await problemsOfResponse(raw.label, res, free(e) && reachesOut(e))));
      }
      const otherMethod = await service.request(e.path, { method: e.method === "GET" ? "PUT" : "GET" });
      problems.push(...(await problemsOfResponse("the wrong method", otherMethod, false)));
      assert.deepEqual(problems, []);
    });
  }
});

describe("bad input as a prepaid call: validation then handler, never a 500", { concurrency }, () => {
  for (const e of endpoints) {
    it(e.name, { skip: knownFailures.get(e.name) }, async () => {
      const problems: string[] = [];
      for (const bad of badInputs(e)) {
        const out = await service.callAs(e.needsWallet ? payer : undefined, e.name, bad.input);
        if (out.status < 300) continue;
        const upstreamFailure = fromClosedUpstreams.has(out.status) && reachesOut(e) && (out.body as any)?.error?.code !== "invalid_output";
        if (out.status >= 500 && !upstreamFailure) problems.push(`${bad.label}: ${out.status} ${JSON.stringify(out.body).slice(0, 300)}`);
        problems.push(...errorBodyProblems(bad.label, out.body));
      }
      assert.deepEqual(problems, []);
    });
  }
});
