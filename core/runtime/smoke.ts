import { randomUUID } from "node:crypto";
import { pathToFileURL, fileURLToPath } from "node:url";
import pino from "pino";
import type { Endpoint } from "../endpoint.ts";
import { unpaidGate } from "../rails.ts";
import { processEnv, readConfig } from "./config.ts";
import { invoke } from "./invoke.ts";
import { loadPlugins } from "./load.ts";
import { startRecordingProxy } from "./recorder.ts";
import { createService } from "./server.ts";
import { createMemoryStore } from "./store.ts";

export interface SmokeOptions {
  /** The operator's environment: keys, URLs and settings, as the service would read them. */
  env: Readonly<Record<string, string | undefined>>;
  /** Endpoint names to call; every mounted one when empty. */
  only?: string[];
  /** Write every upstream exchange into this folder as a fixture. */
  record?: URL;
  concurrency?: number;
  onProgress?: (done: number, total: number, endpoint: string) => void;
}

export interface SmokeRow {
  endpoint: string;
  upstream: string;
  status: number | "skipped";
  ms: number;
  failure: string;
}

/**
 * Calls each mounted endpoint's example through the one call path (invoke), as a call already paid, against
 * whatever upstreams the environment names. Nothing is charged and nothing reaches the operator's store.
 */
export async function runSmoke(options: SmokeOptions) {
  const env: Record<string, string | undefined> = {
    ...options.env,
    LOG_LEVEL: "silent",
    JOBS: "off",
    RATE_LIMIT_PER_MINUTE: "0",
  };
  const recorder = options.record ? await recordingEnv(env, options.record) : undefined;
  const config = readConfig(env);
  const gate = unpaidGate(config);
  const service = await createService({
    config,
    log: pino({ level: "silent" }),
    store: createMemoryStore(),
    payments: async () => ({ gate }),
  });
  try {
    const { endpoints, disabled } = service.runtime;
    const chosen = endpoints.filter(
      (e) => e.path.startsWith("/v1/") && (!options.only?.length || options.only.includes(e.name)),
    );
    const unknown = (options.only ?? []).filter((name) => !chosen.some((e) => e.name === name));
    const rows: SmokeRow[] = [];
    let done = 0;
    const queue = [...chosen];
    const worker = async () => {
      for (let e = queue.shift(); e; e = queue.shift()) {
        rows.push(await callExample(service.runtime, e, config.baseUrl));
        options.onProgress?.(++done, chosen.length, e.name);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
    rows.sort((a, b) => a.endpoint.localeCompare(b.endpoint));
    const failed = rows.filter((r) => r.status !== "skipped" && r.status !== 200).length + unknown.length;
    return { rows, disabled, unknown, failed, recorded: recorder?.written ?? [] };
  } finally {
    await service.close();
    await recorder?.close();
  }
}

async function callExample(
  rt: Awaited<ReturnType<typeof createService>>["runtime"],
  e: Endpoint,
  baseUrl: string,
): Promise<SmokeRow> {
  const declared = [...(e.upstreams ?? []), ...(e.optionalUpstreams ?? [])].join(", ") || "-";
  if (e.needsWallet)
    return { endpoint: e.name, upstream: declared, status: "skipped", ms: 0, failure: "needs a paying wallet" };
  const started = performance.now();
  const outcome = await invoke(rt, {
    endpoint: e,
    input: e.example.input,
    resource: baseUrl + e.path,
    requestId: randomUUID(),
    clientIp: "127.0.0.1",
    prepaid: {},
  });
  const ms = Math.round(performance.now() - started);
  const body = outcome.body as {
    meta?: { sources?: string[] };
    error?: { code: string; message: string; details?: { upstream?: string } };
  };
  if (outcome.status === 200)
    return { endpoint: e.name, upstream: body.meta?.sources?.join(", ") || declared, status: 200, ms, failure: "" };
  const failure = body.error ? `${body.error.code}: ${body.error.message}` : `answered ${outcome.status}`;
  return { endpoint: e.name, upstream: body.error?.details?.upstream ?? declared, status: outcome.status, ms, failure };
}

/** Points every upstream with a base URL at a recording proxy that forwards to that URL. */
async function recordingEnv(env: Record<string, string | undefined>, dir: URL) {
  const { upstreams } = await loadPlugins({ env });
  const variable = (name: string) => `UPSTREAM_${name.toUpperCase().replace(/-/g, "_")}_URL`;
  const bases: Record<string, string> = {};
  for (const [name, entry] of Object.entries(upstreams)) {
    const base = env[variable(name)] || entry.url;
    if (base) bases[name] = base;
  }
  const proxy = await startRecordingProxy(bases, dir);
  for (const name of Object.keys(bases)) env[variable(name)] = `${proxy.url}/${name}`;
  return proxy;
}

/** The table and the summary line, as the command prints them. */
export function renderSmoke(result: Awaited<ReturnType<typeof runSmoke>>, seconds: number): string {
  const header = ["endpoint", "upstream", "status", "latency", "what failed"];
  const lines = result.rows.map((r) => [r.endpoint, r.upstream, String(r.status), `${r.ms} ms`, r.failure]);
  for (const name of result.unknown) lines.push([name, "-", "unknown", "-", "not a mounted endpoint"]);
  const widths = header.map((h, i) => Math.min(48, Math.max(h.length, ...lines.map((l) => l[i].length))));
  const row = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  const ok = result.rows.filter((r) => r.status === 200).length;
  const skipped = result.rows.filter((r) => r.status === "skipped").length;
  const summary =
    `${result.rows.length + result.unknown.length} endpoints: ${ok} ok, ${result.failed} failed, ${skipped} skipped, ` +
    `${result.disabled.length} disabled by configuration, in ${seconds.toFixed(1)} s`;
  const recorded = result.recorded.length ? [`${result.recorded.length} exchanges recorded as fixtures`] : [];
  return [row(header), ...lines.map(row), "", summary, ...recorded].join("\n");
}

/** A one-line bar on a terminal, a line per endpoint elsewhere (a log keeps every one). */
function progressBar(stream: NodeJS.WriteStream) {
  return (done: number, total: number, endpoint: string) => {
    if (!stream.isTTY) return void stream.write(`${done}/${total} ${endpoint}\n`);
    const filled = Math.round((done / total) * 30);
    stream.write(`\r[${"#".repeat(filled)}${".".repeat(30 - filled)}] ${done}/${total} ${endpoint}`.padEnd(80));
    if (done === total) stream.write("\n");
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name: string) => args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`))?.split("=")[1];
  const recording = args.some((a) => a === "--record" || a.startsWith("--record="));
  const started = performance.now();
  const result = await runSmoke({
    env: processEnv(),
    only: args.filter((a) => !a.startsWith("--")),
    record: recording ? pathToFileURL(`${(flag("record") ?? "smoke-fixtures").replace(/\/$/, "")}/`) : undefined,
    concurrency: flag("concurrency") ? Number(flag("concurrency")) : undefined,
    onProgress: progressBar(process.stderr),
  });
  console.log(renderSmoke(result, (performance.now() - started) / 1000));
  process.exit(result.failed ? 1 : 0);
}
