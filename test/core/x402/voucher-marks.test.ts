import { test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { createCredits } from "../../../core/payment/credits.ts";
import { createLedger } from "../../../core/payment/ledger.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { createVoucherInFlight } from "../../../core/x402/schemes/batch-settlement/voucher-in-flight.ts";

const day = 24 * 3600_000;
const channelId = `0x${"ab".repeat(32)}`;

function rig() {
  let clock = Date.UTC(2026, 10, 29);
  const now = () => clock;
  const store = createMemoryStore(now);
  const ledger = createLedger(store, now);
  const credits = createCredits(store);
  const instance = () => createVoucherInFlight({ store, ledger, credits, log: pino({ level: "silent" }), now });
  const inFlight = instance();
  const record = (max: number, paymentId?: string) =>
    inFlight.recordOf(
      { network: "eip155:31337", channelId, max: String(max), before: String(max - 1000) },
      {
        fingerprint: `fp-${max}`,
        paymentId,
        endpoint: "hash",
        payer: "0x00000000000000000000000000000000000000aa",
        charged: "1000",
        asset: "0x00000000000000000000000000000000000000bb",
        payTo: "0x00000000000000000000000000000000000000cc",
        creditCode: `code-${max}`,
        receipt: { header: "payment-response", body: { success: true } },
        answer: { status: 200, body: { data: max }, headers: {} },
        effects: [],
      },
    );
  return { store, credits, inFlight, instance, record, pass: (ms: number) => (clock += ms) };
}

test("voucher marks: a thousand vouchers answered by their own process leave nothing in the store two days later", async () => {
  const { store, inFlight, record, pass } = rig();
  for (let i = 1; i <= 1000; i++) {
    const r = record(i * 1000, i % 2 ? undefined : `pay-${i}`);
    assert.equal(await inFlight.writeAhead(r), true);
    assert.equal(await inFlight.take(r), true);
    await inFlight.settled(r, { status: 200, body: { data: i }, headers: {} });
  }
  assert.equal((await store.keys("x402:resolving:")).length, 1000);
  pass(2 * day - 1);
  assert.equal((await store.keys("x402:resolving:")).length, 1000, "the marks outlive the records' day");
  pass(1);
  assert.deepEqual(await store.keys(""), []);
});

test("voucher marks: two instances resolving one dead voucher credit it once, and its mark lives as long as a live one's", async () => {
  const { store, credits, inFlight, instance, record, pass } = rig();
  const r = record(5000);
  assert.equal(await inFlight.writeAhead(r), true);
  pass(121_000);
  const judged: string[] = [];
  const judge = { settle: async (_c: string, max: string) => (judged.push(max), true) };
  const tallies = await Promise.all([instance(), instance()].map((other) => other.resolveStale(() => judge)));
  assert.equal(
    tallies.reduce((n, t) => n + t.credited + t.delivered, 0),
    1,
  );
  assert.equal(await credits.balance("code-5000"), 1000n);
  // The dead process's late take finds the resolver's mark: nothing is finished a second time.
  assert.equal(await inFlight.take(r), false);
  assert.equal(await credits.balance("code-5000"), 1000n);
  pass(2 * day - 1);
  assert.equal((await store.keys("x402:resolving:")).length, 1);
  pass(1);
  assert.deepEqual(await store.keys("x402:resolving:"), []);
  assert.ok(judged.length >= 1 && judged.every((max) => max === "5000"));
});
