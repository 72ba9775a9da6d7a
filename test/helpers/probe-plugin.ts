import * as v from "valibot";
import { defineEndpoint, definePlugin } from "../../core/endpoint.ts";
import { badRequest, notFound, upstreamFailed } from "../../core/runtime/errors.ts";

/** Test-only endpoints whose handlers fail on purpose, to prove that a failed call is never charged. */
const outcomes = ["ok", "bad", "missing", "upstream", "crash", "slow"] as const;

export const handlerRuns = { count: 0 };

const probe = defineEndpoint({
  name: "probe",
  method: "GET",
  price: "$0.001",
  summary: "Answers, or fails the way it is told to",
  input: v.object({
    outcome: v.optional(v.picklist(outcomes), "ok"),
    echo: v.optional(v.pipe(v.string(), v.maxLength(100)), ""),
  }),
  output: v.object({ echo: v.string(), payer: v.optional(v.string()) }),
  example: { input: { echo: "hi" }, output: { echo: "hi" } },
  timeoutMs: 300,
  async handler({ input, payer, signal }) {
    handlerRuns.count++;
    if (input.outcome === "bad") throw badRequest("the handler refused this input");
    if (input.outcome === "missing") throw notFound("nothing here");
    if (input.outcome === "upstream") throw upstreamFailed("probe-upstream", "probe-upstream answered 500");
    if (input.outcome === "crash") throw new Error("handler crashed");
    if (input.outcome === "slow") await new Promise((resolve) => signal.addEventListener("abort", resolve));
    return payer ? { echo: input.echo, payer } : { echo: input.echo };
  },
});

const expensive = defineEndpoint({
  name: "probe-expensive",
  method: "GET",
  price: "$0.01",
  summary: "Costs ten times the probe",
  input: v.object({}),
  output: v.object({ ok: v.boolean() }),
  example: { input: {}, output: { ok: true } },
  handler: () => ({ ok: true }),
});

export const probePlugin = definePlugin({ family: "probe", endpoints: [probe, expensive] });
