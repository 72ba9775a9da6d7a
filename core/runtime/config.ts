import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import type { UpstreamTable } from "../endpoint.ts";

const Port = v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0), v.maxValue(65535));
const Count = v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0));
const Url = v.pipe(v.string(), v.url());

/** Every setting the service reads from the environment, with its default. */
const EnvSchema = v.object({
  PORT: v.optional(Port, "4021"),
  HOST: v.optional(v.string(), "127.0.0.1"),
  BASE_URL: v.optional(Url),
  PLUGINS: v.optional(v.string()),
  LOG_LEVEL: v.optional(v.picklist(["fatal", "error", "warn", "info", "debug", "trace", "silent"]), "info"),
  STORE_URL: v.optional(v.pipe(v.string(), v.regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL"))),
  RATE_LIMIT_PER_MINUTE: v.optional(Count, "600"),
  TRUST_PROXY: v.optional(v.picklist(["on", "off"]), "off"),
  HANDLER_TIMEOUT_MS: v.optional(Count, "25000"),
  SHUTDOWN_TIMEOUT_MS: v.optional(Count, "30000"),
  MAX_BODY_BYTES: v.optional(Count, "1048576"),
  JOBS: v.optional(v.picklist(["on", "off"]), "on"),
  UPSTREAM_TIMEOUT_MS: v.optional(Count, "10000"),
  UPSTREAM_MAX_BYTES: v.optional(Count, "20971520"),
  UPSTREAM_USER_AGENT: v.optional(v.string(), "x402-agent-services/1.0 (+https://github.com/x402-agent-services)"),
  EGRESS_TIMEOUT_MS: v.optional(Count, "10000"),
  EGRESS_MAX_BYTES: v.optional(Count, "5242880"),
  PAY_TO: v.optional(v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address"))),
  X402_NETWORK: v.optional(v.string()),
  X402_ASSET: v.optional(v.string()),
  X402_ASSET_NAME: v.optional(v.string()),
  X402_ASSET_VERSION: v.optional(v.string()),
  X402_MAX_TIMEOUT_SECONDS: v.optional(Count, "300"),
  /** Comma-separated payment options (presets or own names), each refined by X402_<NAME>_* (core/x402/options.ts). */
  X402_OPTIONS: v.optional(v.string()),
  /** Also take `batch-settlement` vouchers beside `exact` (core/x402/schemes/batch-settlement/gate.ts); on by default on the devnet only. */
  X402_BATCH_SETTLEMENT: v.optional(v.picklist(["on", "off"])),
  /** Also take `upto` Permit2 authorizations on the routes that pay as used (the batch); on by default on the devnet. */
  X402_UPTO: v.optional(v.picklist(["on", "off"])),
  /** How often accepted vouchers are claimed on-chain, and how often claimed funds are swept to payTo. */
  X402_BATCH_CLAIM_SECONDS: v.optional(Count, "60"),
  X402_BATCH_SETTLE_SECONDS: v.optional(Count, "300"),
  FACILITATOR: v.optional(v.picklist(["local", "remote", "devnet"])),
  FACILITATOR_URL: v.optional(Url),
  FACILITATOR_AUTH: v.optional(v.string()),
  RPC_URL: v.optional(Url),
  /** Serve /metrics on this port only (for a scraper inside the network); METRICS_TOKEN still applies there. */
  METRICS_PORT: v.optional(Port),
  /** Serve /metrics on the public port too, to `Authorization: Bearer <METRICS_TOKEN>` only. */
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, "must be at least 16 characters"))),
  /** Traces go over OTLP/HTTP to this collector (`/v1/traces` is added); unset, OpenTelemetry is not even loaded. */
  OTEL_EXPORTER_OTLP_ENDPOINT: v.optional(Url),
  /** `name=value` pairs, comma-separated: a hosted collector's key. */
  OTEL_EXPORTER_OTLP_HEADERS: v.optional(v.string()),
  OTEL_SERVICE_NAME: v.optional(v.string(), "x402-agent-services"),
  /** How long a payment's write-ahead record waits for its own process before any instance finishes it from the chain. */
  X402_RESOLVE_AFTER_SECONDS: v.optional(Count, "120"),
  /** How often unfinished payments are checked against the chain (reconcile.ts). */
  X402_RECONCILE_SECONDS: v.optional(Count, "30"),
  /** Where the payment journal lives (payments that moved while the store failed); a temp directory by default. */
  DATA_DIR: v.optional(v.string()),
  /** Test-only (test/faults): the step of a paid call where the process kills itself, and the file that traces steps. */
  X402_CRASH_AT: v.optional(v.string()),
  X402_CRASH_TRACE: v.optional(v.string()),
  /** Signed offers in every 402 and signed receipts on every paid answer (core/receipts). */
  RECEIPTS: v.optional(v.picklist(["on", "off"]), "on"),
  /** The Ed25519 seed (0x + 32 bytes hex) that signs offers and receipts; the devnet has its own, public one. */
  SERVICE_SIGNING_KEY: v.optional(v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x 32-byte hex key"))),
  RELAYER_KEY: v.optional(v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x 32-byte hex key"))),
  /** The highest fee a relayer signs (maxFeePerGas, in gwei), for a first send and for a replacement. */
  RELAYER_MAX_FEE_GWEI: v.optional(v.pipe(v.string(), v.toNumber(), v.minValue(0)), "100"),
  /** A settlement not mined this long is sent again, or replaced at its nonce with fees an eighth higher. */
  RELAYER_REPLACE_AFTER_SECONDS: v.optional(v.pipe(Count, v.minValue(1)), "15"),
});

export type Config = ReturnType<typeof readConfig>;

/**
 * Reads and checks the environment once at boot; every problem is listed in one error. This is the one place
 * the service reads `process.env`: everything else, the families' settings included, gets `config.env`.
 */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  const picked = Object.fromEntries(Object.keys(EnvSchema.entries).map((k) => [k, env[k] === "" ? undefined : env[k]]));
  const result = v.safeParse(EnvSchema, picked);
  const problems = result.success ? [] : result.issues.map((i) => `${v.getDotPath(i)}: ${i.message}`);
  for (const [name, value] of Object.entries(env)) {
    if (
      /^UPSTREAM_[A-Z0-9_]+_URL$/.test(name) &&
      value &&
      !(URL.canParse(value) && /^https?:$/.test(new URL(value).protocol))
    )
      problems.push(`${name}: must be an http(s) URL`);
  }
  if (!result.success || problems.length) throw new Error(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  const e = result.output;
  return {
    /** The environment as it was read: the families' settings and the upstream overrides come from here. */
    env: Object.freeze({ ...env }) as Readonly<Record<string, string | undefined>>,
    port: e.PORT,
    host: e.HOST,
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    plugins: e.PLUGINS
      ? e.PLUGINS.split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined,
    logLevel: e.LOG_LEVEL,
    storeUrl: e.STORE_URL,
    dataDir: e.DATA_DIR ?? join(tmpdir(), "x402-agent-services"),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    /** Behind a load balancer that sets X-Forwarded-For: the client's IP is its first entry. */
    trustProxy: e.TRUST_PROXY === "on",
    handlerTimeoutMs: e.HANDLER_TIMEOUT_MS,
    /** How long a shutdown waits for running calls before it stops anyway. */
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    maxBodyBytes: e.MAX_BODY_BYTES,
    jobs: e.JOBS === "on",
    upstream: { timeoutMs: e.UPSTREAM_TIMEOUT_MS, maxBytes: e.UPSTREAM_MAX_BYTES, userAgent: e.UPSTREAM_USER_AGENT },
    egress: { timeoutMs: e.EGRESS_TIMEOUT_MS, maxBytes: e.EGRESS_MAX_BYTES },
    metrics: { port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
          headers: otlpHeaders(e.OTEL_EXPORTER_OTLP_HEADERS),
          serviceName: e.OTEL_SERVICE_NAME,
        }
      : undefined,
    receipts: { on: e.RECEIPTS === "on", signingKey: e.SERVICE_SIGNING_KEY },
    payment: {
      facilitator: e.FACILITATOR ?? (e.FACILITATOR_URL ? "remote" : e.RELAYER_KEY ? "local" : "devnet"),
      facilitatorUrl: e.FACILITATOR_URL,
      facilitatorAuth: e.FACILITATOR_AUTH,
      payTo: e.PAY_TO as `0x${string}` | undefined,
      network: e.X402_NETWORK ?? "eip155:8453",
      asset: (e.X402_ASSET ?? "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913") as `0x${string}`,
      assetName: e.X402_ASSET_NAME ?? "USD Coin",
      assetVersion: e.X402_ASSET_VERSION ?? "2",
      maxTimeoutSeconds: e.X402_MAX_TIMEOUT_SECONDS,
      /** Unset: on for the devnet only, its channels in memory unless STORE_URL (payments.ts). */
      batchSettlement: e.X402_BATCH_SETTLEMENT === undefined ? undefined : e.X402_BATCH_SETTLEMENT === "on",
      /** Unset: on for the devnet only (payments.ts). */
      upto: e.X402_UPTO === undefined ? undefined : e.X402_UPTO === "on",
      batchClaimSeconds: e.X402_BATCH_CLAIM_SECONDS,
      batchSettleSeconds: e.X402_BATCH_SETTLE_SECONDS,
      resolveAfterMs: e.X402_RESOLVE_AFTER_SECONDS * 1000,
      reconcileMs: e.X402_RECONCILE_SECONDS * 1000,
      crash: { at: e.X402_CRASH_AT, trace: e.X402_CRASH_TRACE },
      rpcUrl: e.RPC_URL,
      relayerKey: e.RELAYER_KEY as `0x${string}` | undefined,
      relayerMaxFeePerGas: BigInt(Math.round(e.RELAYER_MAX_FEE_GWEI * 1e9)),
      relayerReplaceAfterMs: e.RELAYER_REPLACE_AFTER_SECONDS * 1000,
      /** What core/x402/options.ts reads to build the payment options (checked there, at boot). */
      optionEnv: Object.fromEntries(
        Object.entries(env).filter(([k]) => /^(X402_|PAY_TO$|FACILITATOR|RPC_URL$|RELAYER_KEY$|STORE_URL$)/.test(k)),
      ),
    },
  };
}

/** `name=value,name2=value2` (values URL-encoded, as the OpenTelemetry variables are) as headers. */
const otlpHeaders = (text = "") =>
  Object.fromEntries(
    text
      .split(",")
      .filter((pair) => pair.includes("="))
      .map((pair) =>
        [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)].map((part) =>
          decodeURIComponent(part.trim()),
        ),
      )
      .filter(([name]) => name),
  ) as Record<string, string>;

/**
 * `UPSTREAM_<NAME>_URL` and `UPSTREAM_<NAME>_KEY` override an upstream's base URL and key (name upper-cased, `-` as
 * `_`); an entry's `headerSetting` names the variable its required header comes from.
 */
export function upstreamOverrides(env: Readonly<Record<string, string | undefined>>, table: UpstreamTable = {}) {
  const overrides: Record<string, { url?: string; key?: string; headers?: Record<string, string> }> = {};
  for (const [k, value] of Object.entries(env)) {
    const m = /^UPSTREAM_([A-Z0-9_]+)_(URL|KEY)$/.exec(k);
    if (!m || !value) continue;
    const name = m[1].toLowerCase().replace(/_/g, "-");
    (overrides[name] ??= {})[m[2] === "URL" ? "url" : "key"] = value;
  }
  for (const [name, entry] of Object.entries(table)) {
    const gateway = entry.gateway;
    const gatewayKey = gateway && env[gateway.keyEnv];
    if (gateway && gatewayKey) {
      const own = (overrides[name] ??= {});
      // The key goes only where the gateway is: a chain pointed at its own server never sees it.
      if (!own.url) {
        own.url = (env[gateway.urlEnv] || gateway.url).replace(/\/+$/, "") + gateway.path;
        own.key ??= gatewayKey;
      }
    }
    const value = entry.headerSetting && env[entry.headerSetting.env];
    if (entry.headerSetting && value) (overrides[name] ??= {}).headers = { [entry.headerSetting.header]: value };
  }
  return overrides;
}

/** A problem per upstream setting (a required header, a gateway's URL) whose value does not look as it must. */
export function upstreamSettingProblems(env: Readonly<Record<string, string | undefined>>, table: UpstreamTable) {
  const problems = new Set<string>();
  for (const entry of Object.values(table)) {
    const setting = entry.headerSetting;
    const value = setting && env[setting.env];
    if (setting && value && !setting.pattern.test(value)) problems.add(`${setting.env} must be ${setting.what}`);
    const gatewayUrl = entry.gateway && env[entry.gateway.urlEnv];
    if (gatewayUrl && !(URL.canParse(gatewayUrl) && /^https?:$/.test(new URL(gatewayUrl).protocol)))
      problems.add(`${entry.gateway!.urlEnv}: must be an http(s) URL`);
  }
  return [...problems];
}

/** The process's whole environment, for a command that starts the service the way boot does (`npm run smoke`). */
export const processEnv = (): Readonly<Record<string, string | undefined>> => ({ ...process.env });

/** What the command-line tools (`npm run pay`, `npm run reviews`) and the devnet's launcher read from the environment. */
export function readToolEnv(env: Record<string, string | undefined> = process.env) {
  return {
    /** The service to call: BASE_URL, else localhost on PORT. */
    baseUrl: (env.BASE_URL || `http://localhost:${env.PORT || 4021}`).replace(/\/+$/, ""),
    payerKey: env.PAYER_KEY as `0x${string}` | undefined,
    /** A Solana wallet's exported secret key (base58) and the RPC to pay through, for `npm run pay -- --network solana`. */
    solanaPayerKey: env.SOLANA_PAYER_KEY,
    solanaRpcUrl: env.SOLANA_RPC_URL,
    /** The EVM chain's RPC, for `npm run pay -- --scheme batch` (it reads the channel on-chain). */
    rpcUrl: env.RPC_URL,
    reviewsOperatorToken: env.REVIEWS_OPERATOR_TOKEN,
    /** An anvil binary to run instead of the npm package's. */
    anvilBin: env.ANVIL_BIN,
  };
}
