import type { JsonWebKey } from "node:crypto";
import type * as v from "valibot";

/** The upstream client an endpoint gets from `ctx.upstream(name)`. */
export interface Upstream {
  /** The upstream's name in its family's table. */
  readonly name: string;
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
  /**
   * A JSON-RPC 2.0 read from a node (a chain's): POSTed as `{jsonrpc, id: 1, method, params}` to the base URL and,
   * a read being idempotent, retried and shared by identical concurrent calls like a GET. The node's error
   * answer (a revert) throws `RpcAnswerError`, a 502 carrying the node's code, message and data.
   */
  rpc<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>;
  /**
   * Several JSON-RPC reads in one request (a batch; ids 0 to n-1, in order): one answer per call, in the calls'
   * order, each its result or the node's error for that call. A batch the node refuses as a whole throws.
   */
  rpcBatch(calls: readonly RpcCall[]): Promise<RpcAnswer[]>;
}

export interface RpcCall {
  method: string;
  params?: readonly unknown[];
}

/** One call's answer in a JSON-RPC batch. */
export type RpcAnswer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

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
/** A store write given as data (`ctx.afterPayment`): applied once paid, by whichever process finishes the call. */
export interface StoreWrite {
  set: string;
  value: unknown;
  ttlMs?: number;
}

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
  /** False while a remote store is known to be unreachable (its connection lost and not back); in-process stores omit it. */
  reachable?(): boolean;
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
  fetch(
    url: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
  ): Promise<TargetResponse>;
  /** Resolves and checks a URL without fetching it (refused targets throw a 400). */
  check(url: string): Promise<{ url: string; address: string }>;
}

export interface EndpointContext<I, U extends string = string, S = unknown> {
  /** Validated input, defaults applied. */
  input: I;
  /** A client for one of the upstreams the endpoint declares in `upstreams`. */
  upstream(name: U): Upstream;
  /** The family's settings (`definePlugin({ settings })`), read and checked once at boot. */
  settings: S;
  /** Prepaid balances spent with X-CREDIT-CODE: a family that gives credit (the arcade's prizes) issues codes here. */
  credits: CreditIssuer;
  /** The service's public base URL, without a trailing slash. */
  baseUrl: string;
  egress: Egress;
  store: Store;
  log: Logger;
  /** Aborted when the caller goes away or the deadline passes. */
  signal: AbortSignal;
  /** The paying wallet, when the call was paid with a signed payment: an EVM address as signed (checksummed), or a Solana address (base58). */
  payer?: string;
  /** On a `signIn` route: the wallet that signed in (an EVM address lower-cased, a Solana address as is). */
  wallet?: string;
  /** What the payment side holds for a wallet (its credit codes, its voucher channels): for its signed-in reads. */
  holdings: Holdings;
  /** The caller's IP address: for per-visitor limits on free routes. */
  clientIp: string;
  /** The request's headers (an operator's bearer token); empty for calls that came without HTTP (MCP). */
  headers: Headers;
  /** The service clock (tests move it). */
  now(): Date;
  /** Every loaded endpoint (the batch resolves its items here). */
  catalog: readonly Endpoint[];
  /**
   * Runs another loaded endpoint (by name, or by path such as `/v1/hash`) as part of this call, already paid for
   * (bundles, batch items). Its reservations and writes are its own: kept once this call is paid if the part
   * answered in time, released if it failed. A part whose writes cannot be applied fails this whole call, unless
   * the call answers for each part (`answerWhenPaid`).
   */
  call(nameOrPath: string, input: unknown): Promise<{ status: number; body: unknown }>;
  /**
   * Holds `key` (set to `value`) for a write this call makes once paid that another call could take first: a
   * slot under a cap, a unique name, a one-time salt. False when another call holds it: refuse this one, and it
   * is refused free, before any money moves. Held briefly until the call is paid, then for `ttlMs`; given back
   * when the call ends unpaid or its writes fail, and by itself after a crash. Readers see the key at once, so
   * reserve a key that only counts (a slot, a salt), not a record a reader serves.
   */
  reserve(key: string, value: unknown, ttlMs: number): Promise<boolean>;
  /**
   * A write that may only happen once this call is paid for: it runs after the settlement succeeds, before the
   * answer goes out, and never when the payment fails. Retried, so it must be idempotent. When the call's writes
   * cannot all be applied, `undo` runs for each of them, newest first, so that nothing of the call is kept: it
   * must be idempotent and safe on a write that landed halfway or not at all. The call's only write, if it
   * lands whole or not at all, needs none.
   */
  afterPayment(apply: () => Promise<unknown>, undo?: () => Promise<unknown>): void;
  /**
   * The same for one store write given as data: `store.set(key, value, ttlMs)` once paid. Prefer it: a write given
   * as data survives the process, so when this one dies after the money moved, another instance applies it and
   * hands the answer to the payer's retry (a closure cannot be finished elsewhere: the price is credited instead).
   */
  afterPayment(write: StoreWrite): void;
  /**
   * For a call that answers for each of its parts (the batch): its answer once paid, given the parts (in the
   * order of `call`) whose writes could not be applied and were withdrawn. It replaces what the handler returned.
   */
  answerWhenPaid(render: (withdrawn: number[]) => Promise<unknown>): void;
  /**
   * True when the payment settles what the call used, up to its quoted price (a `batch-settlement` voucher, whose
   * channel reserves the price, or an `upto` permit for the price): only what `use` reports is charged.
   */
  payAsUsed: boolean;
  /** With `payAsUsed`: the part of the quoted price the call used, in USDC atomic units (six decimals). */
  use(atomic: bigint): void;
  /** This instance as it runs (the core family's report reads it). */
  instance: Instance;
}

/** This instance's own figures since it started; the settlements are counted in the store, across instances. */
export interface Instance {
  /** Endpoints left unmounted, with the reason. */
  disabled: readonly { name: string; reason: string }[];
  /** Outcomes and latencies per endpoint called. */
  calls(): EndpointStats[];
  /** The circuit of each upstream called. */
  circuits(): Record<string, "closed" | "open" | "half-open">;
  /** The public key this instance signs offers and receipts with (published in /.well-known/did.json); none when receipts are off. */
  signingKey?: { kid: string; publicJwk: JsonWebKey };
  settlements(): Promise<{
    settled: number;
    settledAtomic: number;
    failed: number;
    indeterminate: number;
    pending: number;
  }>;
}

export interface EndpointStats {
  endpoint: string;
  calls: number;
  ok: number;
  clientErrors: number;
  serverErrors: number;
  successRate: number | null;
  latencyMs: { p50: number; p95: number; p99: number } | null;
}

/** Issues credit codes: bearer balances in USDC, spent with the X-CREDIT-CODE header instead of a payment. */
export interface CreditIssuer {
  /** A new code holding `amount` (a money string such as "$0.25"; "$0" for a code funded later). */
  issue(amount: Price, reason: string): Promise<string>;
  /** Adds `amount` to a code issued earlier. */
  fund(code: string, amount: Price): Promise<void>;
}

/** What the payment side holds for a wallet, read by the routes it signs in to. */
export interface Holdings {
  /** The credit codes issued to the wallet (a paid call's price given back, a refund), newest first. */
  credits(wallet: string): Promise<HeldCredit[]>;
  /** The voucher channels (batch-settlement) the wallet pays from, as their payer or their payer's authorizer. */
  channels(wallet: string): Promise<HeldChannel[]>;
}

export interface HeldCredit {
  /** The bearer code itself: whoever holds it spends it. */
  code: string;
  /** USDC atomic units left. */
  balance: string;
  issuedAt: string;
  expiresAt: string;
  /** Why it was issued (`undelivered store`, `failed batch items`). */
  reason: string;
}

export interface HeldChannel {
  network: string;
  channelId: string;
  /** The token it holds; amounts are in its atomic units. */
  asset: string;
  payer: string;
  payerAuthorizer: string;
  receiver: string;
  /** Deposited and not withdrawn, as last read from the chain. */
  balance: string;
  /** What its vouchers were charged in all. */
  charged: string;
  /** What of that was claimed on chain. */
  claimed: string;
  /** Seconds between a withdrawal's request and when it can be finished. */
  withdrawDelay: number;
  /** The payer's withdrawal, when one was requested: the channel then takes no voucher. */
  withdrawal: { requestedAt: string; finishableAt: string } | null;
}

/** A background task of a plugin: each tick runs on one instance only, across restarts too. */
export interface JobDef<S = any> {
  /** Unique across plugins. */
  name: string;
  /** Milliseconds between ticks. */
  everyMs: number;
  /** Named upstreams the job may call. */
  upstreams?: readonly string[];
  /** The family's settings, when the job reads them (`ctx.settings`). */
  settings?: Settings<S>;
  run(ctx: JobContext<S>): Promise<void>;
}

export interface JobContext<S = unknown> {
  store: Store;
  log: Logger;
  upstream(name: string): Upstream;
  settings: S;
  /** Credit codes (refunds the job owes). */
  credits: CreditIssuer;
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

export interface EndpointDef<
  In extends ObjectSchema = ObjectSchema,
  Out extends v.GenericSchema = v.GenericSchema,
  U extends string = string,
  S = unknown,
> {
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
  /**
   * The call reports what it used (`ctx.use`) when its payment allows paying as used: such a route also offers
   * `upto` (a maximum the payer authorizes, of which only the used part is settled).
   */
  paysAsUsed?: boolean;
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
  /** Named upstreams this endpoint may call (its own family's, the core's `payment-chain`); `ctx.upstream` takes only these. */
  upstreams?: readonly U[];
  /**
   * Upstreams it also calls but can answer without, or that only some inputs reach: an unconfigured one leaves the
   * endpoint mounted, and a call through its client fails with a free 503 `not_configured` naming what to set.
   */
  optionalUpstreams?: readonly U[];
  /** The family's settings, when the handler reads them: `ctx.settings` is typed by them (boot checks they are the family's own). */
  settings?: Settings<S>;
  /**
   * Contacts hosts or URLs the caller names (HTTP through `ctx.egress`, DNS or TLS probes). Only such
   * endpoints get `ctx.egress`; their examples need a live target, so the catalog test leaves them to their own tests.
   */
  probes?: boolean;
  /**
   * Settings (environment variables) the endpoint cannot work without (a contract address, an operator token).
   * When one is unset the endpoint is not mounted, like one whose upstream key is missing; its example needs
   * that deployment, so the catalog test leaves it to the endpoint's own tests.
   */
  requires?: readonly string[];
  /**
   * Keyed by the paying wallet (agent state): a call without a wallet-signed payment (a credit code, an
   * unpaid prepaid part) is refused, so the catalog test leaves its example to the endpoint's own tests.
   */
  needsWallet?: boolean;
  /**
   * Free, for the wallet that signs in (`SIGN-IN-WITH-X`, core/sign-in): `ctx.wallet`. Without a sign-in the
   * route answers a 402 with the challenge and no way to pay; a sign-in that proves no wallet is a 401.
   */
  signIn?: boolean;
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
  handler(ctx: EndpointContext<v.InferOutput<In>, U, S>): Promise<v.InferInput<Out>> | v.InferInput<Out>;
}

/** An endpoint as loaded: its family stamped and its path resolved. */
export type Endpoint = EndpointDef<any, any, any, any> & { family: string; path: string };

// --- settings ---

/** The environment as the settings see it: configuration, plus what the devnet provides when it runs. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A family's settings: one reader of the environment that throws, naming the variable, on a bad value.
 * Boot reads it once, with every other family's and the core's configuration, and refuses to start
 * listing every problem; handlers then get the value as `ctx.settings`.
 */
export interface Settings<S> {
  read(env: Env): S;
}

export function defineSettings<S>(read: (env: Env) => S): Settings<S> {
  return { read };
}

export type SettingsOf<T> = T extends Settings<infer S> ? S : never;

// --- upstreams ---

export interface UpstreamKey {
  /** Environment variable that holds the key (`UPSTREAM_<NAME>_KEY`). */
  env: string;
  /** Sent as this request header... */
  header?: string;
  /** ...after this scheme and a space (`Bearer`), when the header wants one. */
  scheme?: string;
  /** ...or as this query parameter. */
  query?: string;
  /** The upstream works without the key (lower limits); an endpoint using it stays mounted. */
  optional?: boolean;
}

export interface UpstreamGateway {
  /** The variable holding the gateway's key, shared by every upstream it serves; sent as the entry's `key` says. */
  keyEnv: string;
  /** The variable that points the gateway elsewhere, and its default. */
  urlEnv: string;
  url: string;
  /** This upstream's part of the gateway's routes (`/8453` for Base). */
  path: string;
}

/** A request header whose value the operator must give (SEC's User-Agent naming a contact e-mail). */
export interface UpstreamHeaderSetting {
  /** The environment variable holding the value; unset, the upstream counts as unconfigured. */
  env: string;
  header: string;
  /** What a valid value looks like: boot refuses another. */
  pattern: RegExp;
  /** The pattern in words, for boot's message. */
  what: string;
}

/** A third-party API a family calls. The README's data-sources section is generated from these entries. */
export interface UpstreamEntry {
  /**
   * Public base URL; a request's path is appended to it. None when only an operator (or the devnet) can
   * name one, such as the node of a chain where our own contract lives: endpoints using it are not mounted
   * until `UPSTREAM_<NAME>_URL` is set.
   */
  url?: string;
  /** Mirrors of `url` tried in order when it fails (unreachable, a timeout, 429 or 5xx); unused once configuration names a URL. */
  mirrors?: readonly string[];
  /** One line: licence, attribution and limits a user of the data should know. */
  terms: string;
  /** What the licence says about serving the data to paying callers, in a few words (the README's upstream table). */
  commercialUse?: string;
  /** The published (or observed) request limit, in a few words. */
  rateLimit?: string;
  key?: UpstreamKey;
  /**
   * A hosted multi-chain API that serves this upstream's routes under `<gateway url><path>` once its shared key is
   * set (Blockscout's PRO API for every chain's explorer). An upstream's own `UPSTREAM_<NAME>_URL` still wins.
   */
  gateway?: UpstreamGateway;
  /** A header the operator's configuration must give; endpoints using the upstream are unmounted until it does. */
  headerSetting?: UpstreamHeaderSetting;
  /** Sent with every request to this upstream. */
  headers?: Record<string, string>;
  /** Response size cap in bytes when the default is too small for this upstream. */
  maxBytes?: number;
  /** Request timeout when the default is too short (bulk list downloads). */
  timeoutMs?: number;
  /** Redirects to follow (a download that answers 302 to signed storage); none by default. */
  maxRedirections?: number;
}

/**
 * Upstreams by name. Names are global: a family using another family's upstream lists that family's
 * entry (the same object) in its own table, and boot refuses two different entries under one name.
 */
export type UpstreamTable = Record<string, UpstreamEntry>;

export function defineUpstreams<const T extends UpstreamTable>(table: T): T {
  return table;
}

// --- devnet ---

/** A contract a family needs on the devnet, compiled with solc-js and deployed (owned) by the devnet's payTo account. */
export interface DevnetContract {
  /** The contract's name, also its file: `<dir>/<name>.sol`. */
  name: string;
  dir: URL;
  /** Constructor arguments, given the owner's address. */
  args(owner: `0x${string}`): readonly unknown[];
}

/**
 * What the devnet will hold, known before it starts (its accounts come from a fixed mnemonic, its contracts'
 * addresses from their deployer's nonces), so a family's settings are read once, with the rest, before it starts.
 */
export interface DevnetInfo {
  chainId: number;
  /** The contracts the families asked for, by name. */
  contracts: Readonly<Record<string, `0x${string}`>>;
  /** The dev payer (its keys are public: anvil's well-known mnemonic). */
  payer: { address: `0x${string}`; privateKey: `0x${string}` };
  /** Where this service itself answers on loopback. */
  selfUrl: string;
}

/** What a family needs when the service runs its own devnet (the embedded default). */
export interface DevnetNeeds {
  contracts?: readonly DevnetContract[];
  /** Settings in the environment's own terms (`DUEL_ESCROW_ADDRESS`): configuration still wins over them. */
  settings(devnet: DevnetInfo): Record<string, string>;
  /** Upstreams pointed at the devnet's chain unless configuration names their URL (its port is known once it listens). */
  chainUpstreams?: readonly string[];
}

// --- plugins ---

export interface Plugin {
  family: string;
  endpoints: Endpoint[];
  pages: PageDef[];
  assets: AssetDef[];
  jobs: JobDef[];
  settings?: Settings<unknown>;
  upstreams: UpstreamTable;
  devnet?: DevnetNeeds;
}

const defined = new WeakSet<object>();

export function defineEndpoint<
  In extends ObjectSchema,
  Out extends v.GenericSchema,
  const U extends string = never,
  S = unknown,
>(def: EndpointDef<In, Out, U, S>): EndpointDef<In, Out, U, S> {
  defined.add(def);
  return def;
}

/** Whether a module's export came from `defineEndpoint`: the loader refuses any other export of an endpoint file. */
export const isEndpointDef = (value: unknown): value is EndpointDef<any, any, any, any> =>
  typeof value === "object" && value !== null && defined.has(value);

/** The family's endpoints as the service serves them: each knows its family, and its path defaults to `/v1/<name>`. */
export const inFamily = (family: string, defs: readonly EndpointDef<any, any, any, any>[]): Endpoint[] =>
  defs.map((e) => ({ ...e, family, path: e.path ?? `/v1/${e.name}` }));

/**
 * A family's metadata, in `plugins/<family>/index.ts`: its endpoints are the folder's other files, found by
 * the loader. A plugin given as a value (tests) lists its `endpoints` here instead.
 */
export interface PluginDef {
  family: string;
  endpoints?: EndpointDef<any, any, any, any>[];
  pages?: PageDef[];
  assets?: AssetDef[];
  jobs?: JobDef[];
  /** The family's settings; its endpoints and jobs that read them name the same object. */
  settings?: Settings<any>;
  /** The upstreams the family's endpoints and jobs call (`defineUpstreams`). */
  upstreams?: UpstreamTable;
  /** What the family needs from the devnet (a contract deployed, settings pointing at it). */
  devnet?: DevnetNeeds;
}

export function definePlugin(def: PluginDef): Plugin {
  return {
    family: def.family,
    endpoints: inFamily(def.family, def.endpoints ?? []),
    pages: def.pages ?? [],
    assets: def.assets ?? [],
    jobs: def.jobs ?? [],
    settings: def.settings,
    upstreams: def.upstreams ?? {},
    devnet: def.devnet,
  };
}
