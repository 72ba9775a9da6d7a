import type { Plugin, Store, StoreWrite } from "../../core/endpoint.ts";
import type { X402Gate } from "../../core/x402/offers.ts";
import { creditHeader } from "../../core/payment/credits.ts";
import { settlingGate } from "../helpers/service.ts";

/** The header that makes `settlingGate` take a call as paid by `testPayer`. */
export const paying = { "x-credit-code": "cr_test" };

/** A POST with a JSON body, paid. */
export const paidPost = (body: unknown) => ({
  method: "POST",
  headers: { ...paying, "content-type": "application/json" },
  body: JSON.stringify(body),
});

/** A wallet funded for `calls` calls: those settle, every later one fails to (402, the answer withheld). */
export function fundedFor(calls: number): X402Gate {
  const settles = settlingGate();
  const fails = settlingGate({ settles: false });
  let left = calls;
  return {
    ...settles,
    charge: (call, work, price, commit) =>
      (call.payment?.[creditHeader] && left-- > 0 ? settles : fails).charge(call, work, price, commit),
  };
}

/**
 * `calls` paid calls that settle together: each settlement waits until every handler has answered, so all
 * of them pass their handler's checks before any effect runs (the widest race).
 */
export function settlingTogether(calls: number): X402Gate {
  const settles = settlingGate();
  let answered = 0;
  let release!: () => void;
  const allAnswered = new Promise<void>((resolve) => (release = resolve));
  return {
    ...settles,
    charge: (call, work, price, commit) =>
      settles.charge(
        call,
        async (payer) => {
          const outcome = await work(payer);
          if (++answered === calls) release();
          await allAnswered;
          return outcome;
        },
        price,
        commit,
      ),
  };
}

/**
 * The plugin with each effect its endpoints register run through `run`. `failed` collects what each run
 * threw (the call path runs a failed effect again, so one effect that keeps failing shows up once per run).
 */
export function withEffects(
  plugin: Plugin,
  run: (effect: () => Promise<unknown>) => Promise<unknown>,
): Plugin & { failed: unknown[] } {
  const failed: unknown[] = [];
  const tracked = (effect: () => Promise<unknown>) => () =>
    run(effect).catch((error) => {
      failed.push(error);
      throw error;
    });
  return {
    ...plugin,
    endpoints: plugin.endpoints.map((e) => ({
      ...e,
      handler: (ctx) =>
        e.handler({
          ...ctx,
          // A write given as data is run as the closure it stands for, so that `run` sees it too.
          afterPayment: (effect: (() => Promise<unknown>) | StoreWrite, undo?: () => Promise<unknown>) =>
            typeof effect === "function"
              ? ctx.afterPayment(tracked(effect), undo)
              : ctx.afterPayment(tracked(() => ctx.store.set(effect.set, effect.value, effect.ttlMs))),
        }),
    })),
    failed,
  };
}

/** What a retry does after a write that did land: every effect runs a second time. */
export const effectsTwice = (plugin: Plugin) =>
  withEffects(plugin, async (effect) => {
    await effect();
    await effect();
  });

/** A store whose `op` throws the first time it is called: a write that fails halfway through an effect, which the call path runs again. */
export function failingOnce(store: Store, op: keyof Store): Store & { failed: () => boolean } {
  let failed = false;
  return new Proxy(store, {
    get(target, name) {
      if (name === "failed") return () => failed;
      const value = Reflect.get(target, name);
      if (name !== op || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (failed) return value.apply(target, args);
        failed = true;
        return Promise.reject(new Error(`the store's ${op} failed once on purpose`));
      };
    },
  }) as Store & { failed: () => boolean };
}
