import { test } from "node:test";
import assert from "node:assert/strict";
import { recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { affiliate, base, betService, bettorKey, conditionId, dir } from "./_bet.ts";
import { dataOf, errorOf, issuesOf } from "../../helpers/expect.ts";
import betQuote from "../../../plugins/bet/quote.ts";

const input = { conditionId, outcomeId: "29", amount: 10.5 };

test("bet/quote: odds, limits, fee paid by the bettor, minOdds at 5% and typed data a wallet can sign", async (t) => {
  const api = await serveFixtures(t, ["azuro-api.condition-active", "azuro-api.calculation", "azuro-api.gas-info"], {
    dir,
  });
  const before = Math.floor(Date.now() / 1000);
  const out = await (await betService(api.url)).call(betQuote, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.equal((out.body as any).meta.product, "bet");
  const { typedData, raw, disclaimer, ...rest } = dataOf(out);
  assert.deepEqual(rest, {
    environment: "PolygonUSDT",
    chain: 137,
    betToken: { symbol: "USDT", address: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", decimals: 6 },
    market: { conditionId, title: `Market ${conditionId}` },
    outcome: { outcomeId: "29", title: "Outcome 29", odds: 1.81 },
    amount: 10.5,
    potentialPayout: 19.005,
    minOdds: 1.76,
    minBet: 1,
    maxBet: 250.5,
    maxPayout: 5000,
    isFeeSponsored: false,
    relayerFeePaidBy: "bettor",
    relayerFee: 0.023841,
    affiliate,
    approval: {
      token: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F",
      spender: "0x8dA05c0021e6b35865FDC959c54dCeF3A4AbBa9d",
      amountRaw: "10523841",
    },
  });
  assert.equal(raw.amountRaw, "10500000");
  assert.equal(raw.minOdds, "1760000000000");
  assert.equal(raw.relayerFeeAmount, "23841");
  assert.ok(
    raw.expiresAt >= before + 300 && raw.expiresAt <= Math.floor(Date.now() / 1000) + 300,
    String(raw.expiresAt),
  );
  assert.match(raw.nonce, /^\d{16}$/);
  assert.ok(disclaimer.length >= 3);
  assert.equal(typedData.primaryType, "ClientBetData");
  assert.deepEqual(typedData.domain, {
    name: "Live Betting",
    version: "1.0.0",
    chainId: 137,
    verifyingContract: "0xF9548Be470A4e130c90ceA8b179FCD66D2972AC7",
  });
  assert.deepEqual(typedData.message.bets, [
    { conditionId, outcomeId: "29", minOdds: raw.minOdds, amount: raw.amountRaw, nonce: raw.nonce },
  ]);
  assert.equal(typedData.message.clientData.affiliate, affiliate);
  assert.equal(typedData.message.clientData.isFeeSponsored, false);

  // What a wallet gets over JSON-RPC: the JSON as served, signed as is.
  const served = JSON.parse(JSON.stringify(typedData));
  const account = privateKeyToAccount(bettorKey);
  const signature = await account.signTypedData(served);
  assert.equal(await recoverTypedDataAddress({ ...served, signature }), account.address);
});

test("bet/quote: a market no longer live is a 409 and asks nothing more", async (t) => {
  const api = await serveFixtures(t, ["azuro-api.condition-stopped"], { dir });
  const out = await (await betService(api.url)).call(betQuote, input);
  assert.equal(out.status, 409);
  assert.equal(errorOf(out).code, "market_not_live");
  assert.equal(api.calls.length, 1);
});

test("bet/quote: an unknown outcome is a 404", async (t) => {
  const api = await serveFixtures(t, ["azuro-api.condition-active"], { dir });
  const out = await (await betService(api.url)).call(betQuote, { ...input, outcomeId: "32" });
  assert.equal(out.status, 404);
});

test("bet/quote: a stake above the protocol's maxBet is a 422 naming the limits", async (t) => {
  const api = await serveFixtures(t, ["azuro-api.condition-active", "azuro-api.calculation", "azuro-api.gas-info"], {
    dir,
  });
  const out = await (await betService(api.url)).call(betQuote, { ...input, amount: 300 });
  assert.equal(out.status, 422);
  assert.deepEqual(errorOf(out).details, { amount: 300, minBet: 1, maxBet: 250.5, maxPayout: 5000 });
});

test("bet/quote: a failing limits call is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      "azuro-api.condition-active",
      "azuro-api.gas-info",
      {
        source:
          "https://github.com/Azuro-protocol/toolkit/blob/main/src/utils/bet/getBetCalculation.ts (non-2xx throws)",
        request: { method: "POST", path: `${base}/bet/calculation` },
        response: { status: 503, body: "unavailable" },
      },
    ],
    { dir },
  );
  const out = await (await betService(api.url)).call(betQuote, input);
  assert.equal(out.status, 502);
});

test("bet/quote: bad input is a free 400 naming the field and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await betService(api.url);
  const ok = `conditionId=${conditionId}&outcomeId=29`;
  for (const [query, field] of [
    [`${ok}&amount=0`, "amount"],
    [`${ok}`, "amount"],
    [`conditionId=abc&outcomeId=29&amount=10`, "conditionId"],
    [`${ok}&amount=10&environment=Base`, "environment"],
  ]) {
    const res = await service.request(`/v1/bet/quote?${query}`);
    assert.equal(res.status, 400, query);
    const issues = ((await res.json()) as any).error.details.issues as { field: string }[];
    assert.ok(
      issues.some((i) => i.field === field),
      `${query}: ${JSON.stringify(issues)}`,
    );
  }
  const finer = await service.call(betQuote, { ...input, amount: 10.125 });
  assert.equal(finer.status, 400);
  assert.deepEqual(
    issuesOf(finer).map((i: any) => i.field),
    ["amount"],
  );
  assert.equal(api.calls.length, 0);
});
