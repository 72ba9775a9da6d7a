import * as v from "valibot";
import { defineEndpoint, definePlugin } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";

/** The two keys a half-write writes: what is kept of a call whose writes failed halfway. */
export const halves = (key: string) => [`half:${key}:first`, `half:${key}:second`];

/** Two writes after payment: the first lands, then (effect "fails") the second fails; its undo removes both. */
const halfWrite = defineEndpoint({
  name: "half-write",
  method: "GET",
  price: "$0.001",
  summary: "Writes two keys once paid; the second write fails on request",
  input: v.object({
    key: v.pipe(v.string(), v.maxLength(64)),
    effect: v.optional(v.picklist(["ok", "fails", "refused"]), "ok"),
  }),
  output: v.object({ key: v.string() }),
  example: { input: { key: "k" }, output: { key: "k" } },
  handler({ input, store, afterPayment }) {
    if (input.effect === "refused") throw badRequest("refused before payment");
    const [first, second] = halves(input.key);
    afterPayment(
      async () => {
        await store.set(first, 1);
        if (input.effect === "fails") throw new Error("the store gave out halfway");
        await store.set(second, 1);
      },
      () => Promise.all([store.delete(first), store.delete(second)]),
    );
    return { key: input.key };
  },
});
/** A bundle of two writes: its parts' writes stand or fall together with it. */
const pairWrite = defineEndpoint({
  name: "pair-write",
  method: "GET",
  price: "$0.002",
  summary: "Two half-writes as parts of one call",
  input: v.object({ key: v.pipe(v.string(), v.maxLength(60)), second: v.picklist(["ok", "fails"]) }),
  output: v.object({ statuses: v.array(v.number()) }),
  example: { input: { key: "k", second: "ok" }, output: { statuses: [200, 200] } },
  composes: ["half-write"],
  async handler(ctx) {
    const parts = await Promise.all([
      ctx.call("half-write", { key: `${ctx.input.key}-a` }),
      ctx.call("half-write", { key: `${ctx.input.key}-b`, effect: ctx.input.second }),
    ]);
    return { statuses: parts.map((p) => p.status) };
  },
});
export const writesPlugin = definePlugin({ family: "writes", endpoints: [halfWrite, pairWrite] });
