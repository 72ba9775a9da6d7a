import * as v from "valibot";
import type { Egress, TargetResponse } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
import { decodeBody, mediaType } from "../_shared/page-fetch.ts";
import { elapsedSince } from "../_shared/target.ts";

export const probeSchema = v.object({
  name: v.string(),
  url: v.string(),
  status: v.nullable(v.number()),
  found: v.pipe(v.boolean(), v.description("Answered 2xx")),
  valid: v.nullable(
    v.pipe(v.boolean(), v.description("The document has the shape its name promises (null when not found)")),
  ),
  note: v.nullable(v.string()),
  latencyMs: v.number(),
  contentType: v.nullable(v.string()),
  error: v.nullable(v.string()),
});
export type Probe = v.InferOutput<typeof probeSchema>;

type Verdict = { valid: boolean; note: string | null };
export interface DocSpec {
  name: string;
  path: string;
  validate: (text: string) => Verdict;
}

export interface Attempt {
  url: string;
  response: TargetResponse | null;
  ms: number;
  error: string | null;
}

/** One GET through the guard; a failure (including a refused redirect) is recorded, not thrown. */
export async function attempt(egress: Egress, url: string): Promise<Attempt> {
  const started = performance.now();
  try {
    const response = await egress.fetch(url, { headers: { accept: "application/json, text/plain;q=0.9, */*;q=0.5" } });
    return { url, response, ms: elapsedSince(started), error: null };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { url, response: null, ms: elapsedSince(started), error: error.message };
  }
}

export async function probeDoc(egress: Egress, base: string, spec: DocSpec): Promise<Probe> {
  const tried = await attempt(egress, new URL(spec.path, base).href);
  const res = tried.response;
  const found = res !== null && res.status >= 200 && res.status < 300;
  const verdict = found ? spec.validate(decodeBody(res.body, res.headers["content-type"])) : null;
  return {
    name: spec.name,
    url: tried.url,
    status: res?.status ?? null,
    found,
    valid: verdict?.valid ?? null,
    note: verdict?.note ?? null,
    latencyMs: tried.ms,
    contentType: res ? (mediaType(res.headers["content-type"]) ?? null) : null,
    error: tried.error,
  };
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** 2xx is healthy; a JSON body's `status` field is passed on as the note. */
export const healthDoc = (path: string): DocSpec => ({
  name: "health",
  path,
  validate: (text) => {
    const status = jsonObject(text)?.status;
    return { valid: true, note: typeof status === "string" ? status : null };
  },
});

export const x402Doc: DocSpec = {
  name: "x402",
  path: "/.well-known/x402",
  validate: (text) => {
    const doc = jsonObject(text);
    const list =
      doc && (Array.isArray(doc.resources) ? doc.resources : Array.isArray(doc.accepts) ? doc.accepts : undefined);
    return list
      ? { valid: true, note: `${list.length} ${Array.isArray(doc.resources) ? "resources" : "payment options"}` }
      : { valid: false, note: "no resources or accepts list" };
  },
};

export const openApiDoc = (path: string): DocSpec => ({
  name: path.includes("swagger") ? "swagger" : "openapi",
  path,
  validate: (text) => {
    const doc = jsonObject(text);
    const version = doc?.openapi ?? doc?.swagger;
    if (typeof version !== "string" || !doc?.paths || typeof doc.paths !== "object")
      return { valid: false, note: "no openapi/swagger version or paths" };
    return {
      valid: true,
      note: `${doc.openapi ? "OpenAPI" : "Swagger"} ${version}, ${Object.keys(doc.paths).length} paths`,
    };
  },
});

/** llms.txt (llmstxt.org): Markdown that opens with an H1 naming the site. */
export const llmsTxtDoc: DocSpec = {
  name: "llms-txt",
  path: "/llms.txt",
  validate: (text) => {
    const first = text.trimStart().split("\n")[0].trim();
    return first.startsWith("# ")
      ? { valid: true, note: first.slice(2) }
      : { valid: false, note: "does not start with a # title" };
  },
};

/** A2A agent card: JSON with the agent's name and its endpoint or skills. */
export const agentCardDoc = (path: string): DocSpec => ({
  name: path.endsWith("agent-card.json") ? "agent-card" : "agent-json",
  path,
  validate: (text) => {
    const doc = jsonObject(text);
    const ok = typeof doc?.name === "string" && (typeof doc.url === "string" || Array.isArray(doc.skills));
    return ok ? { valid: true, note: doc!.name as string } : { valid: false, note: "no name with url or skills" };
  },
});

/** Names of the documents that were found and valid, health excluded. */
export function discovered(probes: Probe[]): string[] {
  return probes.filter((p) => p.name !== "health" && p.valid === true).map((p) => p.name);
}
