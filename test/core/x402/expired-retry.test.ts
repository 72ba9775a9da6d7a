import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { accountOf, blockNow, transfersTo } from "../../helpers/rail.ts";
import { challengeOf, newPaymentId, toHeader, v2Header } from "../../helpers/sign.ts";

/**
 * A payer whose answer was lost retries with its payment identifier after its authorization's life is over (or in
 * its last seconds, which the binding already refuses): its charged call's answer still goes back to it, once,
 * and a copy of the payment without the identifier gets nothing.
 */
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let skewMs = 0;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const path = "/v1/probe?echo=expired-retry";

before(async () => {
  devnet = await startDevnet();
  service = await startPaidService(devnet, { plugins: [probePlugin], now: () => Date.now() + skewMs });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

const pay = async (header: string) => {
  const res = await service.fetch(url(path), { headers: { "payment-signature": header } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};

test("a retry with its payment identifier after the authorization expired gets its charged call's answer; a copy without the identifier gets nothing; 1 run, 1 transfer", async () => {
  const payer = accountOf(devnet, 3);
  const from = await blockNow(devnet);
  const required = await challengeOf(service.fetch, url(path));
  const { header, payload } = await v2Header(payer, required, {}, undefined, newPaymentId());
  const runs = handlerRuns.count;
  const first = await pay(header);
  assert.equal(first.status, 200, JSON.stringify(first.body));

  const validBeforeMs = Number(payload.authorization.validBefore) * 1000;
  for (const offsetMs of [-3_000, 60_000]) {
    skewMs = validBeforeMs + offsetMs - Date.now();
    const retried = await pay(header);
    assert.equal(retried.status, 200, `${offsetMs} ms from the end: ${JSON.stringify(retried.body)}`);
    assert.equal(retried.headers.get("x-payment-replayed"), "true");
    assert.deepEqual(retried.body.data, first.body.data);
  }

  const { extensions: _, ...withoutId } = JSON.parse(Buffer.from(header, "base64").toString());
  const copy = await pay(toHeader(withoutId));
  assert.notEqual(copy.status, 200, JSON.stringify(copy.body));
  assert.equal(copy.headers.get("x-payment-replayed"), null);

  assert.equal(handlerRuns.count - runs, 1, "the handler ran once");
  assert.equal((await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address)).count, 1);
});
