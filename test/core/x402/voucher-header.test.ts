import { test } from "node:test";
import assert from "node:assert/strict";
import { paymentHeaderOf, PaymentRejected } from "../../../core/x402/codec.ts";
import { voucherJsonOf } from "../../../core/x402/schemes/batch-settlement/voucher-header.ts";

const base64 = (text: string) => Buffer.from(text).toString("base64");
const headerOf = (text: string) => paymentHeaderOf({ "payment-signature": base64(text) })!;

const voucher = {
  x402Version: 2,
  payload: {
    type: "voucher",
    channelConfig: { payer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", withdrawDelay: 900 },
    voucher: { channelId: `0x${"27".repeat(32)}`, maxClaimableAmount: "2000", signature: `0x${"f8".repeat(65)}` },
  },
  resource: { url: "http://localhost/v1/hash?text=hi", description: 'quotes " and \\ and } ] {', mimeType: "" },
  accepted: { scheme: "batch-settlement", network: "eip155:84532", amount: "1000", maxTimeoutSeconds: 300, extra: {} },
};
const paymentId = { info: { required: false, id: "pay_0123456789abcdef" } };
const bazaar = {
  info: { input: { type: "http", queryParams: { text: 'hi}"{', empty: [] } } },
  schema: { properties: { a: { enum: ["x", "}", "\\", '"', "[", null, true, 1.5e3] } }, required: [] },
};

test("a plain voucher's header reads as JSON.parse reads it, less the extensions it never reads", () => {
  const cases = [
    { ...voucher, extensions: { bazaar, "payment-identifier": paymentId } },
    { ...voucher, extensions: { "payment-identifier": paymentId, bazaar, other: "x" } },
    { extensions: { bazaar }, ...voucher },
    { ...voucher, extensions: {} },
  ];
  for (const json of cases)
    for (const text of [JSON.stringify(json), JSON.stringify(json, null, 2), JSON.stringify(json, null, "\t")]) {
      const read = voucherJsonOf(headerOf(text)) as Record<string, unknown>;
      const { "payment-identifier": id } = json.extensions as Record<string, unknown>;
      assert.deepEqual(read, { ...json, extensions: id ? { "payment-identifier": id } : {} });
    }
});

test("a plain voucher's header: the extensions it does not read are stepped over, never parsed", () => {
  const text = JSON.stringify({ ...voucher, extensions: { "payment-identifier": paymentId, bazaar: 0 } }).replace(
    '"bazaar":0',
    '"bazaar":{"info": tru, "schema": [1,,2]}',
  );
  assert.ok(headerOf(text).read instanceof PaymentRejected, "the whole header is not JSON");
  assert.deepEqual(voucherJsonOf(headerOf(text)), { ...voucher, extensions: { "payment-identifier": paymentId } });
});

test("anything but a plain voucher, or a header it cannot step through, is read whole by JSON.parse", () => {
  const deposit = { ...voucher, payload: { ...voucher.payload, type: "deposit" }, extensions: { bazaar } };
  const exact = { ...voucher, accepted: { ...voucher.accepted, scheme: "exact" }, extensions: { bazaar } };
  const escapedKey = JSON.stringify({ ...voucher, extensions: { bazaar } }).replace(
    '"extensions"',
    '"\\u0065xtensions"',
  );
  for (const text of [JSON.stringify(deposit), JSON.stringify(exact), escapedKey])
    assert.deepEqual(voucherJsonOf(headerOf(text)), JSON.parse(text));
  // A key named twice: JSON.parse keeps the last, and so does the voucher's reader.
  const twice = JSON.stringify({ ...voucher, extensions: { bazaar } }).replace(
    '"extensions"',
    `"extensions":{"payment-identifier":${JSON.stringify(paymentId)}},"extensions"`,
  );
  assert.deepEqual(voucherJsonOf(headerOf(twice)), { ...voucher, extensions: {} });
  // Broken outside the extensions: refused as the whole header is.
  const broken = `${JSON.stringify({ ...voucher, extensions: { bazaar } }).slice(0, -1)},}`;
  assert.ok(voucherJsonOf(headerOf(broken)) instanceof PaymentRejected);
});
