import * as v from "valibot";
import { defineEndpoint, type EndpointContext, type EndpointDef, type Price } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

/** Parts still running this long after the bundle started are reported as 504 in place; the handler itself has a little more. */
export const COMPOSE_DEADLINE_MS = 20_000;

/** A part this input leaves out, with the reason (options exist for BTC and ETH only). */
export interface Skip {
  skip: string;
}
export const skip = (reason: string): Skip => ({ skip: reason });
const isSkip = (x: unknown): x is Skip => typeof x === "object" && x !== null && "skip" in x;

export interface PartResult {
  endpoint: string;
  status: number;
  ok: boolean;
  ms: number;
  data?: unknown;
  error?: { code: string; message: string };
}

const PartError = v.object({ code: v.string(), message: v.string() });
const partSchema = (endpoint: string) =>
  v.pipe(
    v.optional(
      v.object({
        endpoint: v.pipe(v.string(), v.description("The catalog endpoint this part ran")),
        status: v.pipe(
          v.number(),
          v.description("Its HTTP status: 200, or the error it answered (504 deadline when it ran out of time)"),
        ),
        ok: v.boolean(),
        ms: v.pipe(v.number(), v.description("Milliseconds the part took")),
        data: v.optional(
          v.pipe(v.unknown(), v.description(`The data of /v1/${endpoint}, in the shape that endpoint documents`)),
        ),
        error: v.optional(PartError),
      }),
    ),
    v.description(`/v1/${endpoint}; absent when listed under skipped`),
  );

/**
 * Runs every planned part at once through `ctx.call` (already paid: not charged again), each answer or
 * failure kept in place. A part still running at the deadline becomes a 504 and the rest is returned.
 */
export async function compose(
  ctx: EndpointContext<unknown>,
  plan: Record<string, { endpoint: string; input: unknown }>,
  deadlineMs = COMPOSE_DEADLINE_MS,
) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"deadline">((resolve) => (timer = setTimeout(() => resolve("deadline"), deadlineMs)));
  const run = async ([name, { endpoint, input }]: [string, { endpoint: string; input: unknown }]): Promise<
    [string, PartResult]
  > => {
    const started = performance.now();
    const outcome = await Promise.race([ctx.call(endpoint, input), deadline]).catch(() => "failed" as const);
    const ms = Math.round(performance.now() - started);
    if (outcome === "deadline")
      return [
        name,
        {
          endpoint,
          status: 504,
          ok: false,
          ms,
          error: { code: "deadline", message: `${endpoint} did not answer within ${deadlineMs} ms` },
        },
      ];
    if (outcome === "failed")
      return [
        name,
        { endpoint, status: 500, ok: false, ms, error: { code: "internal_error", message: `${endpoint} failed` } },
      ];
    const body = outcome.body as { data?: unknown; error?: { code: string; message: string } };
    if (outcome.status === 200) return [name, { endpoint, status: 200, ok: true, ms, data: body.data }];
    const error = body.error ?? { code: "part_failed", message: `${endpoint} answered ${outcome.status}` };
    return [
      name,
      { endpoint, status: outcome.status, ok: false, ms, error: { code: error.code, message: error.message } },
    ];
  };
  try {
    return Object.fromEntries(await Promise.all(Object.entries(plan).map(run)));
  } finally {
    clearTimeout(timer);
  }
}

/** The `data` of each part that answered, by part name (undefined for a failed or skipped part). */
export type PartData<P> = { [K in keyof P]?: any };

export interface BundleDef<
  In extends v.ObjectSchema<v.ObjectEntries, undefined>,
  S extends v.GenericSchema,
  P extends Record<string, string>,
> {
  name: string;
  price: Price;
  summary: string;
  description: string;
  input: In;
  /** Part name -> the catalog endpoint it runs. */
  parts: P;
  /** Each part's input from the bundle's input, or why this input leaves it out (a part not asked for is simply absent). */
  plan(input: v.InferOutput<In>): { [K in keyof P]?: Record<string, unknown> | Skip };
  /** The figures an agent reads first, computed from the parts that answered. */
  digest: S;
  summarize(data: PartData<P>, input: v.InferOutput<In>): v.InferOutput<S>;
  /** Recorded on the test fixtures (see _examples.ts); the loader checks it against the schemas. */
  example: { input: Record<string, unknown>; output: unknown };
  mcp?: boolean;
  deadlineMs?: number;
  /**
   * The caller's URL the parts reach: checked by the egress guard before any part runs, so a refused one
   * (an internal address, a name that resolves to one) is the caller's 400, not failed parts or a "down" site.
   */
  target?(input: v.InferOutput<In>): string;
}

/**
 * A bundle: one paid GET whose parts run in parallel with a deadline. Failed parts are reported in place
 * and the rest returned; when every part failed the call is a 502 (nothing charged).
 */
export function defineBundle<
  In extends v.ObjectSchema<v.ObjectEntries, undefined>,
  S extends v.GenericSchema,
  P extends Record<string, string>,
>(def: BundleDef<In, S, P>) {
  const deadlineMs = def.deadlineMs ?? COMPOSE_DEADLINE_MS;
  const output = v.object({
    summary: def.digest,
    parts: v.object(
      Object.fromEntries(Object.entries(def.parts).map(([name, endpoint]) => [name, partSchema(endpoint)])),
    ),
    skipped: v.pipe(
      v.array(v.object({ part: v.string(), reason: v.string() })),
      v.description("Parts this input leaves out, and why"),
    ),
    failed: v.pipe(v.array(v.string()), v.description("Names of the parts that failed (their errors are in place)")),
  });
  const endpoint: EndpointDef<In, typeof output> = {
    name: def.name,
    method: "GET",
    price: def.price,
    summary: def.summary,
    description: `${def.description} Parts run in parallel as one paid call; a part that fails or takes more than ${deadlineMs / 1000} s is reported in place with its status and error, and the rest is returned. Every part failing is a 502, not charged.`,
    input: def.input,
    output,
    example: def.example as EndpointDef<In, typeof output>["example"],
    composes: [...new Set(Object.values(def.parts))].sort(),
    probes: def.target ? true : undefined,
    timeoutMs: deadlineMs + 2_000,
    mcp: def.mcp,
    async handler(ctx) {
      if (def.target) await ctx.egress.check(def.target(ctx.input));
      const planned = Object.entries(def.plan(ctx.input)).filter(
        (entry): entry is [string, Record<string, unknown> | Skip] => entry[1] !== undefined,
      );
      const skipped = planned.filter(([, p]) => isSkip(p)).map(([part, p]) => ({ part, reason: (p as Skip).skip }));
      const calls = Object.fromEntries(
        planned.filter(([, p]) => !isSkip(p)).map(([part, input]) => [part, { endpoint: def.parts[part], input }]),
      );
      const parts = await compose(ctx as EndpointContext<unknown>, calls, deadlineMs);
      const failed = Object.keys(parts).filter((name) => !parts[name].ok);
      if (failed.length === Object.keys(parts).length) {
        throw new ServiceError(502, "parts_failed", `Every part of ${def.name} failed`, { parts });
      }
      const data = Object.fromEntries(
        Object.entries(parts)
          .filter(([, r]) => r.ok)
          .map(([name, r]) => [name, r.data]),
      ) as PartData<P>;
      return { summary: def.summarize(data, ctx.input), parts, skipped, failed };
    },
  };
  return defineEndpoint(endpoint);
}
