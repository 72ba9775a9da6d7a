import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { privateKeyToAccount } from "viem/accounts";
import { createWalletClient, http, parseSignature } from "viem";
import { chainReader, freshAccount, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin } from "../../helpers/probe-plugin.ts";
import { challengeOf, signAuthorization, toHeader, v2Header } from "../../helpers/sign.ts";
import { devnetChain, testUsdcAbi } from "../../../core/x402/devnet/index.ts";

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let chain: ReturnType<typeof chainReader>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const route = url("/v1/probe?echo=x");

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
  service = await startPaidService(devnet, { plugins: [probePlugin] });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
const now = () => Math.floor(Date.now() / 1000);

/** Each case builds a payment header that must be refused with 402 and the given reason, moving no money. */
const cases: { name: string; reason: RegExp; header: () => Promise<string> }[] = [
  {
    name: "wrong amount",
    reason: /value_mismatch/,
    header: async () => signed({ accepted: { amount: "1" } }, { value: "1" }),
  },
  {
    name: "authorization value differs from the price",
    reason: /value_mismatch/,
    header: async () => signed({}, { value: "999" }),
  },
  {
    name: "wrong payTo",
    reason: /recipient_mismatch/,
    header: async () =>
      signed({ accepted: { payTo: devnet.accounts.others[0].address } }, { to: devnet.accounts.others[0].address }),
  },
  {
    name: "authorization to another address",
    reason: /recipient_mismatch/,
    header: async () => signed({}, { to: devnet.accounts.others[0].address }),
  },
  {
    name: "wrong asset",
    reason: /invalid_asset/,
    header: async () => signed({ accepted: { asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e" } }),
  },
  {
    name: "wrong network",
    reason: /invalid_network/,
    header: async () => signed({ accepted: { network: "eip155:8453" } }),
  },
  {
    name: "expired validBefore",
    reason: /valid_before/,
    header: async () => signed({}, { validBefore: String(now() - 10) }),
  },
  {
    name: "future validAfter",
    reason: /valid_after/,
    header: async () => signed({}, { validAfter: String(now() + 600) }),
  },
  {
    name: "bad signature (signed by another key)",
    reason: /invalid_exact_evm_signature/,
    header: async () => signed({}, {}, freshAccount()),
  },
  {
    name: "payment for another route",
    reason: /resource_mismatch/,
    header: async () =>
      signed({ resource: { url: url("/v1/probe-expensive"), description: "", mimeType: "application/json" } }),
  },
  {
    name: "payment priced for another route",
    reason: /value_mismatch/,
    header: async () => {
      const other = await challengeOf(service.fetch, url("/v1/probe-expensive"));
      const p = await signAuthorization(payer(), other.accepts[0]);
      return toHeader({ x402Version: 2, accepted: other.accepts[0], payload: p });
    },
  },
  {
    name: "insufficient balance",
    reason: /insufficient_balance|insufficient_funds/,
    header: async () => {
      const poor = freshAccount();
      return signed({}, { from: poor.address }, poor);
    },
  },
  {
    name: "nonce already used on-chain",
    reason: /nonce_already_used/,
    header: async () => {
      const required = await challengeOf(service.fetch, route);
      const { header, payload } = await v2Header(payer(), required);
      const wallet = createWalletClient({
        account: privateKeyToAccount(devnet.accounts.others[1].privateKey),
        chain: devnetChain(devnet.rpcUrl),
        transport: http(devnet.rpcUrl),
      });
      const a = payload.authorization;
      const { v, r, s } = parseSignature(payload.signature);
      const hash = await wallet.writeContract({
        address: devnet.usdc.address,
        abi: testUsdcAbi,
        functionName: "transferWithAuthorization",
        args: [
          a.from as `0x${string}`,
          a.to as `0x${string}`,
          BigInt(a.value),
          BigInt(a.validAfter),
          BigInt(a.validBefore),
          a.nonce as `0x${string}`,
          Number(v),
          r,
          s,
        ],
      });
      await chain.client.waitForTransactionReceipt({ hash });
      return header;
    },
  },
  { name: "malformed header (not base64)", reason: /invalid_payload/, header: async () => "not base64 at all!" },
  {
    // Node's Buffer.from skips what is not base64: a decoder that leaned on it alone would pay for this one.
    name: "a good payment with a character that is not base64 inside",
    reason: /invalid_payload/,
    header: async () => {
      const good = await signed({});
      return `${good.slice(0, 40)}.${good.slice(40)}`;
    },
  },
  {
    name: "malformed header (base64 of garbage)",
    reason: /invalid_payload/,
    header: async () => Buffer.from("{nope").toString("base64"),
  },
  {
    name: "header missing the authorization",
    reason: /invalid_payload/,
    header: async () => toHeader({ x402Version: 2, accepted: {}, payload: {} }),
  },
  {
    name: "oversized header",
    reason: /invalid_payload/,
    header: async () => toHeader({ x402Version: 2, padding: "x".repeat(40_000) }),
  },
  { name: "unknown x402 version", reason: /invalid_x402_version/, header: async () => toHeader({ x402Version: 7 }) },
];

async function signed(
  override: { accepted?: object; resource?: object },
  change: Record<string, string> = {},
  signer = payer(),
) {
  const required = await challengeOf(service.fetch, route);
  const accepted = { ...required.accepts[0], ...override.accepted };
  const from = change.from ? { address: change.from } : payer();
  const p = await signAuthorization(from as any, accepted, change, signer);
  return toHeader({ x402Version: 2, resource: override.resource ?? required.resource, accepted, payload: p });
}

for (const c of cases) {
  test(`refused with 402, no transfer: ${c.name}`, async () => {
    const header = await c.header();
    const before = await chain.balance(devnet.accounts.payTo.address);
    const res = await service.fetch(route, { headers: { "payment-signature": header } });
    assert.equal(res.status, 402);
    const body = await res.json();
    assert.match(body.reason, c.reason, JSON.stringify(body));
    assert.ok(body.accepts.length > 0, "the refusal carries the requirements again");
    assert.ok(res.headers.get("payment-required"));
    assert.equal(res.headers.get("payment-response"), null);
    assert.equal(await chain.balance(devnet.accounts.payTo.address), before);
  });
}

test("refused with 402, no transfer: a v1 X-PAYMENT for a network we do not offer", async () => {
  const required = await challengeOf(service.fetch, route);
  const p = await signAuthorization(payer(), required.accepts[0]);
  const header = toHeader({ x402Version: 1, scheme: "exact", network: "base", payload: p });
  const res = await service.fetch(route, { headers: { "x-payment": header } });
  assert.equal(res.status, 402);
  assert.equal((await res.json()).reason, "invalid_network");
});

test("a v2 payload sent in the v1 header is refused", async () => {
  const required = await challengeOf(service.fetch, route);
  const { header } = await v2Header(payer(), required);
  const res = await service.fetch(route, { headers: { "x-payment": header } });
  assert.equal(res.status, 402);
  assert.equal((await res.json()).reason, "invalid_x402_version");
});
