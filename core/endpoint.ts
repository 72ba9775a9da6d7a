import type * as v from "valibot";

/** The upstream client an endpoint gets from `ctx.upstream(name)`. */
export interface Upstream {
  /** Base URL after configuration overrides. */
  readonly url: string;
  /**
   * GET or POST a path below the base URL, parse JSON and check it against `shape` (what the code reads):
   * non-2xx and timeouts become 502/504, an answer of another shape a 502 `upstream_invalid`.
   */
  json<S extends v.GenericSchema>(path: string, shape: S, init?: UpstreamRequest): Promise<v.InferOutput<S>>;
  /** @deprecated unchecked; pass the shape the code reads. */
  json<T = unknown>(path: string, init?: UpstreamRequest): Promise<T>;
  /** Same, returning the body as text (XML, CSV, HTML). */
  text(path: string, init?: UpstreamRequest): Promise<string>;
}

export interface UpstreamRequest {
  method?: "GET" | "POST";
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Turn the upstream's 404 into our 404 (the thing asked for does not exist) instead of a 502. */
  notFoundAs404?: boolean;
  /**
   * Keep a 4xx answer's body (capped at 64 KiB): the 502 then carries `details.status` and `details.body`
   * (parsed JSON, else text), for APIs that explain a refusal in the body (the Azuro relayer).
   */
  keepErrorBody?: boolean;
}

/** Key-value state shared by every instance (memory by default, Redis with STORE_URL). */
export interface Store {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<boolean>;
  /** Sets the key only if it is absent; true when this call created it. */
  claim(key: string, value: unknown, ttlMs?: number): Promise<boolean>;
  /** Deletes the key only while it holds `value` (the same JSON): an owner releasing what it claimed. */
  deleteIf(key: string, value: unknown): Promise<boolean>;
  /** Sets a new TTL only while the key holds `value` (the same JSON): an owner renewing what it claimed. */
  renewIf(key: string, value: unknown, ttlMs: number): Promise<boolean>;
  /** Adds `by` and returns the new value; the TTL is set when the key is created. */
  increment(key: string, by?: number, ttlMs?: number): Promise<number>;
  /** Subtracts `amount` only when the number held covers it, atomically; the new value, or undefined (absent or short). */
  take(key: string, amount: number): Promise<number | undefined>;
  /** Adds `by` to a member's score in a sorted set and returns the new score. */
  rank(set: string, member: string, by: number): Promise<number>;
  /** Highest scores first. */
  top(set: string, count: number): Promise<{ member: string; score: number }[]>;
  /** Live keys that start with `prefix` (for background jobs; not for hot paths). */
  keys(prefix: string): Promise<string[]>;
}

export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
}

/** What the egress guard returns for a user-supplied URL. */
export interface TargetResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The final URL after redirects. */
  url: string;
  body: Buffer;
  text(): string;
  redirects: string[];
  /** The checked address the connection went to. */
  address: string;
}

/** The only way a handler may reach a URL a caller supplied: checked, pinned, capped (design section 6). */
export interface Egress {
  fetch(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<TargetResponse>;
  /** Resolves and checks a URL without fetching it (refused targets throw a 400). */
  check(url: string): Promise<{ url: string; address: string }>;
}

export interface EndpointContext<I> {
  /** Validated input, defaults applied. */
  input: I;
  upstream(name: string): Upstream;
  egress: Egress;
  store: Store;
  log: Logger;
  /** Aborted when the caller goes away or the deadline passes. */
  signal: AbortSignal;
  /** The paying wallet, when the call was paid with a signed payment: an EVM address as signed (checksummed), or a Solana address (base58). */
  payer?: string;
  /** The caller's IP address: for per-visitor limits on free routes. */
  clientIp: string;
  /** The request's headers (an operator's bearer token); empty for calls that came without HTTP (MCP). */
  headers: Headers;
  /** The service clock (tests move it). */
  now(): Date;
  /** Every loaded endpoint (the batch resolves its items here). */
  catalog: readonly Endpoint[];
  /** Runs another loaded endpoint (by name, or by path such as `/v1/hash`) as part of this call, already paid for (bundles, batch items). */
  call(nameOrPath: string, input: unknown): Promise<{ status: number; body: unknown }>;
  /**
   * Work that may only happen once this call is paid for (the batch funding a credit for its failed items):
   * it runs after the settlement succeeds, before the answer goes out, and never when the payment fails.
   */
  afterPayment(effect: () => Promise<unknown>): void;
}

/** A background task of a plugin: each tick runs on one instance only, across restarts too. */
export interface JobDef {
  /** Unique across plugins. */
  name: string;
  /** Milliseconds between ticks. */
  everyMs: number;
  /** Named upstreams the job may call. */
  upstreams?: readonly string[];
  run(ctx: JobContext): Promise<void>;
}

export interface JobContext {
  store: Store;
  log: Logger;
  upstream(name: string): Upstream;
  /** The guard for caller-supplied URLs (watches and webhooks). */
  egress: Egress;
  signal: AbortSignal;
  now(): Date;
}

/** A page for humans, served inside the shared layout (one look and navigation for every page). */
export interface PageDef {
  path: string;
  /** The navigation label and the document title. */
  title: string;
  /** HTML inside `<main>`; a function is called per request (pages built from live data, such as the loaded endpoints). */
  body: string | ((site: PageContext) => PageAnswer | Promise<PageAnswer>);
  /** Extra `<head>` content: styles, module scripts. */
  head?: string;
  /** Left out of the navigation (a route such as a short link's redirect). */
  hidden?: boolean;
}

/** HTML for `<main>`, the same with a status (a page that is not there), or a redirect. */
export type PageAnswer = string | { status: number; html: string } | { redirect: string };

/** What a page built per request may read. */
export interface PageContext {
  /** The route's parameters, e.g. `code` of `/s/:code`. */
  params: Record<string, string>;
  /** Every loaded endpoint. */
  endpoints: readonly Endpoint[];
  baseUrl: string;
  store: Store;
  now(): Date;
}

/** A static file a page loads, such as a browser module shared with the server. */
export interface AssetDef {
  path: string;
  type: string;
  file: URL;
}

export type Method = "GET" | "POST";
export type Price = `$${string}`;
type ObjectSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

export interface EndpointDef<In extends ObjectSchema = ObjectSchema, Out extends v.GenericSchema = v.GenericSchema> {
  /** Catalog name; the path defaults to `/v1/<name>` (`bet/odds` -> `/v1/bet/odds`). */
  name: string;
  /** GET reads the query string, POST the JSON body. */
  method: Method;
  /** A GET endpoint also served for POST with the same input as a JSON body (the batch). */
  acceptsBody?: boolean;
  /** Set only for routes outside `/v1/` (the duel helpers). */
  path?: string;
  /** x402 money string; "$0" for a free route. */
  price: Price;
  /**
   * The price of one call when it depends on the input (a batch: its items), from the validated input and
   * the loaded endpoints. Runs before any payment, so it may also refuse input only it can check (a 400).
   */
  priceOf?(input: v.InferOutput<In>, catalog: readonly Endpoint[]): Price;
  /** With `priceOf`: the most one call can cost, so an agent can bound what it authorizes (OpenAPI's price range). */
  maxPriceOf?(catalog: readonly Endpoint[]): Price;
  /** One line: OpenAPI summary, MCP tool description, manifest title. */
  summary: string;
  description?: string;
  /** Declarative valibot object schema (no transforms), so it converts to JSON Schema. */
  input: In;
  /**
   * Alternative sources of one input: a call gives the fields of exactly one group, e.g.
   * `[["html"], ["url"]]` or `[["lat", "lon"], ["place"]]`. Checked with the schema, before any payment.
   */
  oneOf?: readonly (readonly string[])[];
  /** Schema of `data` in the response envelope. */
  output: Out;
  /** A real call: the input passes `input`, the output passes `output`. */
  example: { input: v.InferInput<In>; output: v.InferInput<Out> };
  /** Seconds to cache an answer per validated input. */
  cacheTtl?: number;
  /** Named upstreams this endpoint may call; any other name throws. */
  upstreams?: readonly string[];
  /**
   * Contacts hosts or URLs the caller names (HTTP through `ctx.egress`, DNS or TLS probes). Only such
   * endpoints get `ctx.egress`; their examples need a live target, so the catalog test leaves them to their own tests.
   */
  probes?: boolean;
  /**
   * Environment variables the endpoint cannot work without (a chain's RPC URL, a contract address). When one
   * is unset the endpoint is not mounted, like one whose upstream key is missing; its example needs that
   * deployment, so the catalog test leaves it to the endpoint's own tests.
   */
  requires?: readonly string[];
  /**
   * Keyed by the paying wallet (agent state): a call without a wallet-signed payment (a credit code, an
   * unpaid prepaid part) is refused, so the catalog test leaves its example to the endpoint's own tests.
   */
  needsWallet?: boolean;
  /**
   * The catalog endpoints this one runs as parts through `ctx.call` (a bundle). Its example needs their
   * upstreams and targets, so the catalog test leaves it to the bundle's own tests.
   */
  composes?: readonly string[];
  /** Offered as a paid MCP tool. */
  mcp?: boolean;
  /** Milliseconds the handler may run before the call fails with 504 (default from configuration). */
  timeoutMs?: number;
  /** The body is sent as is, without the `{meta, data}` envelope (the duel calldata composers). */
  raw?: boolean;
  handler(ctx: EndpointContext<v.InferOutput<In>>): Promise<v.InferInput<Out>> | v.InferInput<Out>;
}

/** An endpoint as loaded: its family stamped and its path resolved. */
export type Endpoint = EndpointDef<any, any> & { family: string; path: string };

/** Reads one of a family's settings from the environment and throws, naming the variable, on a bad value. */
export type SettingReader = (env: NodeJS.ProcessEnv) => unknown;

export interface Plugin {
  family: string;
  endpoints: Endpoint[];
  pages: PageDef[];
  assets: AssetDef[];
  jobs: JobDef[];
  settings: SettingReader[];
}

export function defineEndpoint<In extends ObjectSchema, Out extends v.GenericSchema>(def: EndpointDef<In, Out>): EndpointDef<In, Out> {
  return def;
}

export interface PluginDef {
  family: string;
  endpoints: EndpointDef<any, any>[];
  pages?: PageDef[];
  assets?: AssetDef[];
  jobs?: JobDef[];
  /**
   * The readers of the environment variables the family takes (the same functions its code calls).
   * Boot runs every one and refuses to start, listing each bad value with the core configuration's.
   */
  settings?: SettingReader[];
}

export function definePlugin(def: PluginDef): Plugin {
  return {
    family: def.family,
    endpoints: def.endpoints.map((e) => ({ ...e, family: def.family, path: e.path ?? `/v1/${e.name}` })),
    pages: def.pages ?? [],
    assets: def.assets ?? [],
    jobs: def.jobs ?? [],
    settings: def.settings ?? [],
  };
}
