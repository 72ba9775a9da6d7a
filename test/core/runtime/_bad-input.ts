import { after } from "node:test";
import dns from "node:dns";
import { loadPlugins } from "../../../core/runtime/load.ts";
import { schemasOf } from "../../../core/runtime/schema.ts";
import type { Endpoint } from "../../../core/endpoint.ts";
import { badInputsFor, toQuery, type BadInput } from "../../helpers/bad-inputs.ts";
import { startTestService } from "../../helpers/service.ts";
import { isFree, jsonOrText } from "../../../core/shared.ts";

// The bad-input sweep (bad-input-http-1 and -2, bad-input-prepaid: three files, so each holds its time limit
// on a busy machine): every endpoint gets generated bad input; none may answer 500.
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
export const operator = { authorization: `Bearer ${env.REVIEWS_OPERATOR_TOKEN}` };
const systemLookup = dns.promises.lookup;
dns.promises.lookup = (async (host: string) => {
  throw Object.assign(new Error(`lookup of ${host} refused in tests`), { code: "ENOTFOUND" });
}) as typeof dns.promises.lookup;

// The first calls of every route land together while each family loads its libraries on first use; on a busy
// machine that can take longer than the production deadline, and this sweep is about answers, not latency.
export const service = await startTestService({ env: { ...env, HANDLER_TIMEOUT_MS: "120000" } });
export const maxBodyBytes = service.runtime.config.maxBodyBytes;
export const payer = "0x00000000000000000000000000000000000000a1";
after(async () => {
  await service.close();
  dns.promises.lookup = systemLookup;
});

/** Endpoints left out, each with the reason; every entry is a known bug to fix. */
export const knownFailures = new Map<string, string>([]);

const casesPerEndpoint = 16;
export const concurrency = 8;
// 403: a caller the route does not serve (no wallet behind a credit, no proof of work on a free play).
export const refusals = new Set([400, 402, 403, 404, 405, 413, 422]);
export const fromClosedUpstreams = new Set([502, 503, 504]);

/** A handler that may reach an upstream, a chain node, a caller's target or another endpoint fails 502-504 here. */
export const reachesOut = (e: Endpoint) =>
  Boolean(e.upstreams?.length || e.probes || e.composes?.length || e.requires?.length);

export function badInputs(e: Endpoint): BadInput[] {
  return badInputsFor(schemasOf(e).input, e.example.input as Record<string, unknown>, casesPerEndpoint);
}

export async function problemsOfResponse(label: string, res: Response, handlerMayRun: boolean): Promise<string[]> {
  const text = await res.text();
  if (res.status >= 200 && res.status < 300) return [];
  const problems: string[] = [];
  const allowed = refusals.has(res.status) || (handlerMayRun && fromClosedUpstreams.has(res.status));
  if (!allowed) problems.push(`${label}: status ${res.status} ${text.slice(0, 300)}`);
  if (!res.headers.get("content-type")?.startsWith("application/json"))
    problems.push(`${label}: content-type ${res.headers.get("content-type")}`);
  // A 402 is the x402 challenge (valid-looking input reaching the paywall), whose body the protocol fixes.
  problems.push(
    ...(res.status === 402 && !asksSignIn(res)
      ? challengeProblems(label, jsonOrText(text))
      : errorBodyProblems(label, jsonOrText(text))),
  );
  return problems;
}

export function errorBodyProblems(label: string, body: any): string[] {
  const error = body?.error;
  const ok =
    error && typeof error.code === "string" && error.code && typeof error.message === "string" && error.message;
  return ok ? [] : [`${label}: not the JSON error body: ${JSON.stringify(body)?.slice(0, 300)}`];
}

/** A route that reads a signed-in wallet's data answers 402 with a sign-in challenge (in PAYMENT-REQUIRED) and an error body. */
function asksSignIn(res: Response): boolean {
  const header = res.headers.get("payment-required");
  return Boolean(header && JSON.parse(Buffer.from(header, "base64").toString("utf8")).extensions?.["sign-in-with-x"]);
}

function challengeProblems(label: string, body: any): string[] {
  return Array.isArray(body?.accepts) && body.accepts.length
    ? []
    : [`${label}: a 402 without payment requirements: ${JSON.stringify(body)?.slice(0, 300)}`];
}

export function overHttp(e: Endpoint, bad: BadInput): Promise<Response> | undefined {
  if (e.method === "POST") {
    return service.request(e.path, {
      method: "POST",
      body: JSON.stringify(bad.input) ?? "null",
      headers: { ...operator, "content-type": "application/json" },
    });
  }
  const query = toQuery(bad.input);
  return query === undefined ? undefined : service.request(`${e.path}?${query}`, { headers: operator });
}

export const free = isFree;
export const endpoints = service.runtime.endpoints.filter((e) => e.family !== "core");
