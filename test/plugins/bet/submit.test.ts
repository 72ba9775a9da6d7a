import { test } from "node:test";
import assert from "node:assert/strict";
import { privateKeyToAccount } from "viem/accounts";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { attention } from "../../../plugins/bet/_environments.ts";
import { betTypedData } from "../../../plugins/bet/_typed-data.ts";
import {
  affiliate,
  betService,
  bettorKey,
  calculation,
  conditionId,
  dir,
  polygonRead,
  relayer,
  strangerKey,
} from "./_bet.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import betQuote from "../../../plugins/bet/quote.ts";
import betSubmit from "../../../plugins/bet/submit.ts";

const bettor = privateKeyToAccount(bettorKey);
const core = "0xF9548Be470A4e130c90ceA8b179FCD66D2972AC7";

/** A submission signed by `key` over the raw values, then `changes` applied (after signing). */
async function signedInput(key = bettorKey, raw: Record<string, unknown> = {}, changes: Record<string, unknown> = {}) {
  const values = {
    conditionId,
    outcomeId: "29",
    amountRaw: "10500000",
    minOdds: "1760000000000",
    nonce: "1778500000000123",
    expiresAt: Math.floor(Date.now() / 1000) + 300,
    relayerFeeAmount: "23841",
    ...raw,
  };
  const signature = await privateKeyToAccount(key as `0x${string}`).signTypedData(
    betTypedData({ chainId: 137, core, affiliate, attention }, values as any) as any,
  );
  return { bettor: bettor.address, signature, ...values, ...changes };
}

test("bet/submit: a quote signed with viem is accepted and forwarded with the exact body the relayer expects", async (t) => {
  const orderId = `${bettor.address.toLowerCase()}_1778500000000123`;
  const api = await serveFixtures(
    t,
    [
      "azuro-api.condition-active",
      "azuro-api.calculation",
      "azuro-api.gas-info",
      "azuro-api.condition-active",
      calculation(bettor.address, 250.5),
      relayer(200, { id: orderId, state: "Created" }),
    ],
    { dir },
  );
  const service = await betService(api.url);
  const quote = (await service.call(betQuote, { conditionId, outcomeId: "29", amount: 10.5 })).body as any;
  const signature = await bettor.signTypedData(JSON.parse(JSON.stringify(quote.data.typedData)));
  const out = await service.call(betSubmit, { bettor: bettor.address.toLowerCase(), signature, ...quote.data.raw });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), {
    accepted: true,
    betId: orderId,
    state: "Accepted",
    relayerState: "Created",
    environment: "PolygonUSDT",
    bettor: bettor.address,
    trackWith: `${api.url}/api/v1/public/bet/orders/${orderId}`,
  });
  const raw = quote.data.raw;
  const posted = api.calls.find((c) => c.path.endsWith("/bet/orders/ordinar"))!;
  assert.equal(posted.headers["content-type"], "application/json");
  assert.deepEqual(JSON.parse(posted.body), {
    environment: "PolygonUSDT",
    bettor: bettor.address.toLowerCase(),
    betOwner: bettor.address.toLowerCase(),
    clientBetData: {
      clientData: {
        attention: "By signing this transaction, I agree to place a bet for an event on Azuro Protocol",
        affiliate,
        core,
        expiresAt: raw.expiresAt,
        chainId: 137,
        relayerFeeAmount: "23841",
        isFeeSponsored: false,
        isBetSponsored: false,
        isSponsoredBetReturnable: false,
      },
      bet: { conditionId, outcomeId: 29, minOdds: "1760000000000", amount: "10500000", nonce: raw.nonce },
    },
    bettorSignature: signature,
  });
});

test("bet/submit: a signature that is not 0x and whole bytes (65 at least) is a free 400 naming the field, nothing called", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await betService(api.url);
  const input = await signedInput();
  for (const signature of [
    "0x1234",
    input.signature.slice(2),
    `${input.signature}0`,
    input.signature.slice(0, 130),
    input.signature.replace(/.$/, "g"),
  ]) {
    const query = new URLSearchParams(Object.entries({ ...input, signature }).map(([k, v]) => [k, String(v)]));
    const res = await service.request(`/v1/bet/submit?${query}`);
    assert.equal(res.status, 400, signature);
    assert.deepEqual(
      ((await res.json()) as any).error.details.issues.map((i: any) => i.field),
      ["signature"],
    );
  }
  assert.equal(api.calls.length, 0);
});

test("bet/submit: another wallet's signature, or any raw value changed after signing, is refused before any Azuro call", async (t) => {
  const api = await serveFixtures(
    t,
    [polygonRead("eth_getCode", [bettor.address, "latest"], "0x", "the bettor is an EOA: no code")],
    { reuse: true },
  );
  const service = await betService(api.url);
  const refusals = [
    await signedInput(strangerKey),
    await signedInput(bettorKey, {}, { amountRaw: "20500000" }),
    await signedInput(bettorKey, {}, { minOdds: "1000000000000" }),
    await signedInput(bettorKey, {}, { outcomeId: "30" }),
    await signedInput(bettorKey, {}, { relayerFeeAmount: "0" }),
  ];
  for (const input of refusals) {
    const out = await service.call(betSubmit, input);
    assert.equal(out.status, 400, JSON.stringify(input));
    assert.equal(errorOf(out).code, "signature_mismatch");
  }
  assert.deepEqual(
    new Set(api.calls.map((c) => c.path)),
    new Set(["/polygon-rpc"]),
    "only asked whether the bettor has code",
  );
});

test("bet/submit: an expired order is a 409 before any call", async (t) => {
  const api = await serveFixtures(t, []);
  const out = await (await betService(api.url)).call(
    betSubmit,
    await signedInput(bettorKey, { expiresAt: Math.floor(Date.now() / 1000) - 1 }),
  );
  assert.equal(out.status, 409);
  assert.equal(errorOf(out).code, "quote_expired");
  assert.equal(api.calls.length, 0);
});

test("bet/submit: a market no longer live is a 409 and nothing is forwarded", async (t) => {
  const api = await serveFixtures(t, ["azuro-api.condition-stopped"], { dir });
  const out = await (await betService(api.url)).call(betSubmit, await signedInput());
  assert.equal(out.status, 409);
  assert.equal(errorOf(out).code, "market_not_live");
  assert.equal(api.calls.length, 1);
});

test("bet/submit: odds fallen below the signed minOdds are a 409 and nothing is forwarded", async (t) => {
  const api = await serveFixtures(t, ["azuro-api.condition-active"], { dir });
  const out = await (await betService(api.url)).call(
    betSubmit,
    await signedInput(bettorKey, { minOdds: "1820000000000" }),
  );
  assert.equal(out.status, 409);
  assert.equal(errorOf(out).code, "odds_moved");
});

test("bet/submit: a stake outside the protocol's limits for this bettor is a 422 and nothing is forwarded", async (t) => {
  const api = await serveFixtures(t, ["azuro-api.condition-active", calculation(bettor.address, 5)], { dir });
  const out = await (await betService(api.url)).call(betSubmit, await signedInput());
  assert.equal(out.status, 422);
  assert.deepEqual(errorOf(out).details, { amount: 10.5, minBet: 1, maxBet: 5, maxPayout: 5000 });
  assert.equal(api.calls.length, 2);
});

test("bet/submit: the relayer's refusal is a 422 with its reason; its outage a 502; neither charged", async (t) => {
  const refusal = { error: "TokenAllowance", errorMessage: "Insufficient allowance for the relayer" };
  for (const [answer, status, code] of [
    [relayer(400, refusal), 422, "relayer_rejected"],
    [relayer(500, { message: "Internal server error" }), 502, "upstream_error"],
  ] as const) {
    const api = await serveFixtures(t, ["azuro-api.condition-active", calculation(bettor.address, 250.5), answer], {
      dir,
    });
    const out = await (await betService(api.url)).call(betSubmit, await signedInput());
    assert.equal(out.status, status, JSON.stringify(out.body));
    assert.equal(errorOf(out).code, code);
    if (status === 422) {
      assert.equal(errorOf(out).message, "Azuro's relayer refused the order: Insufficient allowance for the relayer");
      assert.deepEqual(errorOf(out).details, refusal);
    }
  }
});
