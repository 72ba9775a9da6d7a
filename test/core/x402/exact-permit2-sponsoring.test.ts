import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { PERMIT2_ADDRESS } from "@x402/evm";
import { wrapFetchWithPayment } from "@x402/fetch";
import type { Hex } from "viem";
import type { LocalAccount } from "viem/accounts";
import { encodeHeader } from "../../../core/x402/challenge.ts";
import { testUsdcAbi } from "../../../core/x402/devnet/index.ts";
import { freshAccount, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { permit2Token } from "../../helpers/permit2.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";

/**
 * `exact` through Permit2 with the `eip2612GasSponsoring` extension: on the devnet, its test USDC (which has EIP-2612
 * `permit`) offered through Permit2 instead of EIP-3009, beside the test DAI (which has none). A wallet that never
 * approved Permit2 signs an EIP-2612 permit with its payment and pays in one round, spending no gas of its own.
 */
const price = 1000n; // $0.001 in the 6-decimal test USDC

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let usdc: ReturnType<typeof permit2Token>;
let dai: ReturnType<typeof permit2Token>;
before(async () => {
  devnet = await startDevnet();
  service = await startPaidService(devnet, { plugins: [probePlugin], usdcThroughPermit2: true, permit2: true });
  usdc = permit2Token(devnet, devnet.usdc.address);
  dai = permit2Token(devnet, devnet.dai.address);
});
after(async () => {
  await devnet?.stop();
});

const url = (key: string) => `${service.baseUrl}/v1/probe?echo=${key}`;
async function challenge(key: string) {
  const res = await service.fetch(url(key));
  assert.equal(res.status, 402);
  return JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString()) as PaymentRequired;
}
const send = (key: string, payload: unknown) =>
  service.fetch(url(key), { headers: { "payment-signature": encodeHeader(payload) } });

/** An EIP-2612 permit for Permit2 signed by `owner` under the test USDC's domain, as @x402/evm's client signs it. */
async function signPermit(owner: LocalAccount, change: { spender?: Hex; value?: bigint; deadline?: bigint } = {}) {
  const nonce = await usdc.reader.readContract({
    address: devnet.usdc.address,
    abi: testUsdcAbi,
    functionName: "nonces",
    args: [owner.address],
  });
  const message = {
    owner: owner.address,
    spender: change.spender ?? PERMIT2_ADDRESS,
    value: change.value ?? price,
    nonce,
    deadline: change.deadline ?? BigInt(Math.floor(Date.now() / 1000) + 300),
  };
  const signature = await owner.signTypedData({
    domain: {
      name: devnet.usdc.name,
      version: devnet.usdc.version,
      chainId: devnet.chainId,
      verifyingContract: devnet.usdc.address,
    },
    types: {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "Permit",
    message,
  });
  return {
    from: owner.address,
    asset: devnet.usdc.address,
    spender: message.spender as string,
    amount: String(message.value),
    nonce: String(nonce),
    deadline: String(message.deadline),
    signature,
    version: "1",
  };
}

test("exact-permit2 sponsoring: the 402 declares eip2612GasSponsoring and offers the test USDC through Permit2 with its EIP-712 domain, the test DAI without one", async () => {
  const required = await challenge("offer");
  assert.ok(required.extensions?.eip2612GasSponsoring);
  const extraOf = (asset: string) => required.accepts.find((a) => a.asset === asset)?.extra;
  assert.deepEqual(extraOf(devnet.usdc.address), {
    name: devnet.usdc.name,
    version: devnet.usdc.version,
    assetTransferMethod: "permit2",
  });
  assert.deepEqual(extraOf(devnet.dai.address), { assetTransferMethod: "permit2" });
});

test("exact-permit2 sponsoring: a wallet with no Permit2 allowance pays in one round with the real client's EIP-2612 permit: 1 run, 1 Transfer of the price, Permit2's allowance used up, no gas spent by the payer", async () => {
  const account = await usdc.wallet(10n * price, false);
  assert.equal(await usdc.allowanceOf(account.address), 0n);
  const gas = await usdc.reader.getBalance({ address: account.address });
  const sent: string[] = [];
  const counting = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    sent.push(headers.get("payment-signature") ?? "");
    return service.fetch(input, init);
  }) as typeof fetch;
  const before = handlerRuns.count;
  const res = await wrapFetchWithPayment(counting, usdc.client(account))(url("sponsored"));
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(sent.length, 2, "the 402, then one paid request");
  const paid = JSON.parse(Buffer.from(sent[1], "base64").toString()) as PaymentPayload;
  const permit = paid.extensions?.eip2612GasSponsoring as { info: { amount: string } } | undefined;
  assert.equal(permit?.info.amount, String(price));
  assert.equal(handlerRuns.count - before, 1);
  assert.deepEqual(await usdc.transfersFrom(account.address), [price]);
  assert.equal(await usdc.allowanceOf(account.address), 0n, "the permit allowed exactly the price, all spent");
  assert.equal(await usdc.reader.getBalance({ address: account.address }), gas, "the payer sent no transaction");
});

test("exact-permit2 sponsoring: forged EIP-2612 permits (another owner's, another spender's, a lower value, expired, a token without permit) are refused with a 402 before any settlement: 0 runs, 0 transfers, Permit2's allowance untouched", async () => {
  const account = await usdc.wallet(10n * price, false);
  const required = await challenge("forged");
  const payment = await usdc.client(account).createPaymentPayload(required);
  assert.ok(payment.extensions?.eip2612GasSponsoring, "the client signed a permit: it has no allowance");
  const withPermit = (info: unknown) => ({ ...payment, extensions: { eip2612GasSponsoring: { info } } });
  const now = BigInt(Math.floor(Date.now() / 1000));
  const stranger = freshAccount();
  const forged: [string, unknown][] = [
    ["eip2612_from_mismatch", withPermit(await signPermit(stranger))],
    // Signed by the payer for another spender, presented as Permit2's.
    [
      "invalid_eip2612_signature",
      withPermit({ ...(await signPermit(account, { spender: stranger.address })), spender: PERMIT2_ADDRESS }),
    ],
    ["eip2612_spender_not_permit2", withPermit(await signPermit(account, { spender: stranger.address }))],
    ["eip2612_amount_too_low", withPermit(await signPermit(account, { value: price - 1n }))],
    ["eip2612_deadline_expired", withPermit(await signPermit(account, { deadline: now - 60n }))],
  ];
  // The DAI has no permit: a DAI payment carrying one is refused.
  const daiPayer = await dai.wallet(10n ** 18n, false);
  const daiPayment = await dai.client(daiPayer).createPaymentPayload(required);
  forged.push([
    "eip2612_not_supported",
    { ...daiPayment, extensions: { eip2612GasSponsoring: { info: await signPermit(daiPayer) } } },
  ]);
  const before = handlerRuns.count;
  for (const [reason, payload] of forged) {
    const res = await send("forged", payload);
    assert.equal(res.status, 402, reason);
    assert.equal((await res.json()).reason, reason);
  }
  assert.equal(handlerRuns.count - before, 0);
  assert.deepEqual(await usdc.transfersFrom(account.address), []);
  assert.deepEqual(await dai.transfersFrom(daiPayer.address), []);
  assert.equal(await usdc.allowanceOf(account.address), 0n);
  // The payer's own permit, untouched, still pays.
  const res = await send("forged", payment);
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual([handlerRuns.count - before, await usdc.transfersFrom(account.address)], [1, [price]]);
});
