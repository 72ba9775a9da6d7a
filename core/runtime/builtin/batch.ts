import * as v from "valibot";
import { defineEndpoint, type Endpoint, type Price } from "../../endpoint.ts";
import { badRequest, ServiceError, toErrorBody } from "../errors.ts";
import { coerceQuery, parseInput } from "../schema.ts";
import { atomicToPrice, toAtomicAmount } from "../../shared.ts";

const maxCalls = 10;
const minimumAtomic = 50_000n;

const item = v.object({
  path: v.pipe(
    v.string(),
    v.regex(/^\/v1\/[a-z0-9/-]+$/),
    v.maxLength(100),
    v.description("A catalog route, such as /v1/hash"),
  ),
  params: v.optional(
    v.pipe(
      v.record(v.string(), v.unknown()),
      v.description("Its parameters: the query of a GET route (values as JSON or text), the body of a POST route"),
    ),
    {},
  ),
});

const answer = v.object({
  path: v.string(),
  status: v.pipe(v.number(), v.description("The HTTP status this call would have answered on its own")),
  ms: v.pipe(v.number(), v.description("Latency in milliseconds")),
  body: v.pipe(v.unknown(), v.description("Its `{meta, data}` envelope, or its error body")),
});

export const batch = defineEndpoint({
  name: "batch",
  method: "GET",
  acceptsBody: true,
  price: "$0.05",
  priceOf: (input, catalog) =>
    atomicToPrice(
      maxBig(
        minimumAtomic,
        prepare(input.calls, catalog).reduce((sum, p) => sum + p.atomic, 0n),
      ),
    ),
  maxPriceOf: (catalog) =>
    atomicToPrice(
      maxBig(
        minimumAtomic,
        BigInt(maxCalls) *
          catalog.filter((e) => e.name !== "batch").reduce((most, e) => maxBig(most, toAtomic(e.price)), 0n),
      ),
    ),
  paysAsUsed: true,
  summary: "Run up to 10 catalog calls in one paid request, in parallel; failed items are credited",
  description:
    "GET with `calls` as JSON in the query, or POST with `{calls}` as the body. The price is the larger of $0.05 and the sum of the items' prices, " +
    "quoted in the 402 challenge. Every item's input is checked before payment (a 400 names `calls.<i>.params.<field>`). Items run in parallel; " +
    "each answers with its own status, body and latency. Failed items are credited: their prices go to a credit code " +
    "(spend it with the X-CREDIT-CODE header), funded once the batch's own payment has settled (paid with a batch-settlement voucher or an upto permit, only the items that succeeded are charged instead). " +
    "An item whose change cannot be saved once the batch is paid is reported failed (503 `effect_failed`), nothing of it is kept, and its price is credited. If every item fails the batch answers 502 and nothing is charged. A batch cannot contain a batch.",
  input: v.object({
    calls: v.pipe(v.array(item), v.minLength(1), v.maxLength(maxCalls), v.description(`1 to ${maxCalls} calls`)),
  }),
  output: v.object({
    results: v.array(answer),
    succeeded: v.number(),
    failed: v.number(),
    credit: v.nullable(
      v.pipe(
        v.object({ code: v.string(), amount: v.pipe(v.string(), v.description("USDC atomic units (6 decimals)")) }),
        v.description("The failed items' prices, spendable as X-CREDIT-CODE"),
      ),
    ),
  }),
  example: {
    input: {
      calls: [
        { path: "/v1/hash", params: { text: "hello", algo: "sha256" } },
        { path: "/v1/uuid", params: { count: 1 } },
      ],
    },
    output: {
      results: [
        {
          path: "/v1/hash",
          status: 200,
          ms: 1.2,
          body: { meta: { product: "converters", endpoint: "hash", ts: "2026-11-21T12:00:00.000Z" }, data: {} },
        },
        {
          path: "/v1/uuid",
          status: 200,
          ms: 0.4,
          body: { meta: { product: "converters", endpoint: "uuid", ts: "2026-11-21T12:00:00.000Z" }, data: {} },
        },
      ],
      succeeded: 2,
      failed: 0,
      credit: null,
    },
  },
  async handler(ctx) {
    const items = prepare(ctx.input.calls, ctx.catalog);
    const results = await Promise.all(
      items.map(async ({ endpoint, input }) => {
        const started = performance.now();
        const out = await ctx.call(endpoint.path, input);
        return {
          path: endpoint.path,
          status: out.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          body: out.body,
        };
      }),
    );
    if (results.every((r) => r.status >= 400)) {
      throw new ServiceError(502, "batch_failed", "Every item of the batch failed; nothing is charged", { results });
    }
    // Paid as used: only the items that succeeded are charged.
    if (ctx.payAsUsed) ctx.use(sumOf(items.filter((_, i) => results[i].status < 400)));
    // Once paid, an item whose writes could not be applied failed too, and nothing of it is kept.
    ctx.answerWhenPaid(async (withdrawn) => {
      for (const i of withdrawn) results[i] = { ...results[i], status: 503, body: toErrorBody(writesFailed()) };
      const failed = items.filter((_, i) => results[i].status >= 400);
      // Credited: every failed item's price, except what a payment as used never charged.
      const refund = sumOf(ctx.payAsUsed ? withdrawn.map((i) => items[i]) : failed);
      const credit =
        refund > 0n
          ? { code: await ctx.credits.issue(atomicToPrice(refund), "failed batch items"), amount: String(refund) }
          : null;
      return { results, succeeded: results.length - failed.length, failed: failed.length, credit };
    });
    const failed = results.filter((r) => r.status >= 400).length;
    return { results, succeeded: results.length - failed, failed, credit: null };
  },
});

const writesFailed = () =>
  new ServiceError(503, "effect_failed", "The item ran but its change could not be saved; its price is credited");
const sumOf = (items: Prepared[]) => items.reduce((sum, item) => sum + item.atomic, 0n);

interface Prepared {
  endpoint: Endpoint;
  input: unknown;
  atomic: bigint;
}

/** Resolves and validates every item before anything runs: unknown routes, nested batches and bad params are a 400. */
function prepare(calls: { path: string; params: Record<string, unknown> }[], catalog: readonly Endpoint[]): Prepared[] {
  return calls.map((call, i) => {
    const endpoint = catalog.find((e) => e.path === call.path);
    if (!endpoint)
      throw badRequest(`calls.${i}.path: no route ${call.path}`, {
        issues: [{ field: `calls.${i}.path`, message: `No route ${call.path} on this deployment` }],
      });
    if (endpoint.name === "batch")
      throw badRequest("A batch cannot contain a batch", {
        issues: [{ field: `calls.${i}.path`, message: "A batch cannot contain a batch" }],
      });
    const raw = endpoint.method === "GET" ? coerceQuery(endpoint, asQuery(call.params)) : call.params;
    try {
      return { endpoint, input: parseInput(endpoint, raw), atomic: toAtomic(endpoint.price) };
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      const issues = ((error.details as any)?.issues ?? []).map((x: any) => ({
        field: `calls.${i}.params.${x.field}`,
        message: x.message,
      }));
      throw badRequest(`calls.${i}: invalid input for ${endpoint.name}`, { issues });
    }
  });
}

/** Params as a GET route reads them, so an item behaves exactly like the same call over HTTP. */
function asQuery(params: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [k, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value) && value.every((x) => typeof x !== "object")) query.set(k, value.join(","));
    else query.set(k, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return query;
}

const toAtomic = (price: Price) => BigInt(toAtomicAmount(price, 6));
const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);
