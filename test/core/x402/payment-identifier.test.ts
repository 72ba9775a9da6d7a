import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { Ajv2020 } from "ajv/dist/2020.js";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { accountOf } from "../../helpers/rail.ts";
import { challengeOf, newPaymentId, signAuthorization, toHeader } from "../../helpers/sign.ts";

/**
 * A `payment-identifier` is a string of a fixed format; the extension may carry a JSON schema, and a client's
 * schema is its own: its patterns are never compiled or run here (one catastrophic pattern held the event loop
 * for seconds per unpaid request). Counted: Ajv compilations, the event loop's longest delay, /health's answers.
 */
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const path = "/v1/probe?echo=id";
const compiles = { count: 0 };

before(async () => {
  const compile = Ajv2020.prototype.compile;
  Ajv2020.prototype.compile = function (this: Ajv2020, ...args: Parameters<typeof compile>) {
    compiles.count++;
    return compile.apply(this, args);
  } as typeof compile;
  devnet = await startDevnet();
  service = await startPaidService(devnet, { plugins: [probePlugin] });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

/** A payment in the dev payer's name signed by another key (anyone can send one), with the extension as given. */
async function forged(extension: unknown, change: (payment: any) => any = (p) => p) {
  const required = await challengeOf(service.fetch, url(path));
  const accepted = required.accepts[0];
  const payload = await signAuthorization(accountOf(devnet, 0), accepted, {}, accountOf(devnet, 1));
  return toHeader(
    change({
      x402Version: 2,
      resource: required.resource,
      accepted,
      payload,
      extensions: { "payment-identifier": extension },
    }),
  );
}
const pay = (header: string) => service.fetch(url(path), { headers: { "payment-signature": header } });

// Backtracks 2^n steps on n a's and a final "_" (a valid identifier): some 5 s for this one on an idle core.
const hostile = {
  info: { required: false, id: `${"a".repeat(25)}_` },
  schema: {
    type: "object",
    properties: { id: { type: "string", pattern: "^(a+)+$" } },
    patternProperties: { "^(a+)+$": {} },
  },
};

test("payment identifier: forged payments whose extension brings a catastrophic pattern: 0 compiles, the event loop and /health stay quick", async () => {
  const headers = await Promise.all(Array.from({ length: 4 }, () => forged(hostile)));
  const [before, runs] = [compiles.count, handlerRuns.count];
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The histogram counts from its second tick on.
  await new Promise((resolve) => setTimeout(resolve, 30));
  // /health asked every 25 ms while the payments are handled: how long each caller waited from its moment.
  const start = performance.now();
  const health = (i: number) =>
    new Promise<{ status: number; ms: number }>((resolve) =>
      setTimeout(async () => {
        const res = await service.fetch(url("/health"));
        await res.body?.cancel();
        resolve({ status: res.status, ms: performance.now() - (start + i * 25) });
      }, i * 25),
    );
  const [answers, healths] = await Promise.all([
    Promise.all(
      headers.map(async (h) => {
        const res = await pay(h);
        return [res.status, (await res.json()).reason];
      }),
    ),
    Promise.all(Array.from({ length: 8 }, (_, i) => health(i))),
  ]);
  // One more turn of the timers, so a hold that has just ended is in the histogram.
  await new Promise((resolve) => setTimeout(resolve, 20));
  delay.disable();
  const slowest = Math.max(...healths.map((h) => h.ms));
  const longest = delay.max / 1e6;
  assert.deepEqual(
    { compiles: compiles.count - before, handlerRuns: handlerRuns.count - runs },
    { compiles: 0, handlerRuns: 0 },
  );
  assert.ok(longest < 1000, `the event loop was held for ${longest.toFixed(0)} ms`);
  assert.ok(slowest < 1000, `/health took ${slowest.toFixed(0)} ms`);
  assert.deepEqual(
    healths.map((h) => h.status),
    Array(8).fill(200),
  );
  // Judged on what matters, the signature, which a forger does not have.
  assert.deepEqual(answers, Array(4).fill([402, "invalid_exact_evm_signature"]));
});

test("payment identifier: the identifier's format is checked before anything else, by fixed rules", async () => {
  const runs = handlerRuns.count;
  const malformed = [
    { required: false, id: "short" },
    { required: false, id: "x".repeat(129) },
    { required: false, id: `pay_${"0".repeat(20)}!` },
    { required: false, id: 42 },
    { id: newPaymentId() },
  ];
  for (const info of malformed) {
    // Also aimed at another resource: the identifier is judged first.
    const header = await forged({ info }, (p) => ({ ...p, resource: { url: url("/v1/elsewhere") } }));
    const res = await pay(header);
    assert.deepEqual(
      [res.status, (await res.json()).reason],
      [402, "invalid_payment_identifier"],
      JSON.stringify(info),
    );
  }
  // At the limits of the format, a forged payment goes on to be judged on its signature.
  for (const id of ["a".repeat(16), `${"Az09_-".repeat(21)}xy`]) {
    const res = await pay(await forged({ info: { required: true, id } }));
    assert.deepEqual([res.status, (await res.json()).reason], [402, "invalid_exact_evm_signature"], id);
  }
  assert.equal(handlerRuns.count, runs);
});
