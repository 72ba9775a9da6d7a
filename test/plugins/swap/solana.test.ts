import { test } from "node:test";
import assert from "node:assert/strict";
import { depositor, feeRecipient, fixtureBody, swapService } from "./_service.ts";

const sol = "So11111111111111111111111111111111111111112";
const usdc = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const bonk = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const degen = "0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed";
const user = "FMqhbZQdT6SwHWY6azub7PuhunK8KMFxY294quUfCDyY";
const feeAccounts = {
  sol: "rrEgjawh6bGtjjMEnir4GrbYXFRvn5kavKLGG82tFLR",
  usdc: "GbCjYyfaX8pCmAathHuorxtCJ44vDBysFvmvmMdUN7LT",
};
const env = { SWAP_SOLANA_FEE_ACCOUNTS: `${sol}:${feeAccounts.sol},${usdc}:${feeAccounts.usdc}` };

test("trade-solana: Jupiter quote and the unsigned transaction, passed through unchanged, with token cards", async (t) => {
  const { api, service } = await swapService(
    t,
    ["jupiter.quote-sol-usdc", "jupiter.swap-sol-usdc", "jupiter.tokens-sol-usdc"],
    { env },
  );
  const out = await service.call("trade-solana", {
    user,
    inputMint: sol,
    outputMint: usdc,
    amount: "1000000000",
    enrich: true,
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = (out.body as any).data;
  const swap = await fixtureBody("jupiter.swap-sol-usdc");
  assert.equal(data.transaction.swapTransaction, swap.swapTransaction);
  assert.equal(data.transaction.lastValidBlockHeight, 367891234);
  assert.equal(data.outAmount, "182764500");
  assert.equal(data.minOutAmount, "181850677");
  assert.deepEqual(data.platformFee, { feeBps: 100, amount: "1846106", mint: usdc, account: feeAccounts.usdc });
  assert.deepEqual(
    data.tokens.map((c: any) => [c.symbol, c.decimals, c.usdPrice]),
    [
      ["SOL", 9, 184.61],
      ["USDC", 6, 0.9999],
    ],
  );
  const sent = JSON.parse(api.calls.find((c) => c.path === "/jupiter/swap/v1/swap")!.body);
  assert.equal(sent.userPublicKey, user);
  assert.equal(sent.feeAccount, feeAccounts.usdc);
  assert.equal(api.calls[0].headers["x-api-key"], "test-jupiter-key");
});

test("trade-solana: Jupiter failing is a 502", async (t) => {
  const quote = await fixtureBody("jupiter.quote-sol-usdc");
  const { service } = await swapService(
    t,
    [
      {
        source: "https://dev.jup.ag/docs/api/swap-api/quote (errors: {error, errorCode})",
        request: {
          method: "GET",
          path: `/jupiter/swap/v1/quote?inputMint=${sol}&outputMint=${usdc}&amount=1000000000&slippageBps=50&platformFeeBps=100&restrictIntermediateTokens=true`,
        },
        response: { status: 400, body: { error: "Could not find any route", errorCode: "COULD_NOT_FIND_ANY_ROUTE" } },
      },
    ],
    { env },
  );
  const out = await service.call("trade-solana", { user, inputMint: sol, outputMint: usdc, amount: "1000000000" });
  assert.equal(out.status, 502);
  assert.equal(quote.inAmount, "1000000000");
});

test("trade-solana: bad input is a free 400 naming the field", async (t) => {
  const { api, service } = await swapService(t, [], { env });
  const base = { user, inputMint: sol, outputMint: usdc, amount: "1000000000" };
  const cases: [Record<string, string>, string][] = [
    [{ user: "0xnotsolana" }, "user"],
    [{ amount: "1e9" }, "amount"],
    [{ feeBps: "301" }, "feeBps"],
    [{ slippageBps: "3001" }, "slippageBps"],
  ];
  for (const [over, field] of cases) {
    const res = await service.request(`/v1/trade-solana?${new URLSearchParams({ ...base, ...over })}`);
    assert.equal(res.status, 400, field);
    assert.ok(
      (await res.json()).error.details.issues.some((i: any) => i.field === field),
      field,
    );
  }
  const same = await service.call("trade-solana", { ...base, outputMint: sol });
  assert.equal(same.status, 400);
  assert.equal((same.body as any).error.details.issues[0].field, "outputMint");
  assert.equal(api.calls.length, 0);
});

test("memecoin: a Solana buy spends amountLamports of SOL through Jupiter", async (t) => {
  const { service } = await swapService(t, ["jupiter.quote-sol-bonk", "jupiter.swap-sol-bonk"], { env });
  const out = await service.call("memecoin", { address: bonk, user, amountLamports: "100000000" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = (out.body as any).data;
  assert.equal(data.source, "jupiter");
  assert.equal(data.slippageBps, 300);
  assert.equal(data.feeBps, 100);
  assert.equal(data.solanaTransaction.swapTransaction, (await fixtureBody("jupiter.swap-sol-bonk")).swapTransaction);
  assert.equal(data.evmTransaction, null);
});

test("memecoin: an EVM buy races the same-chain aggregators and returns the winner's calldata", async (t) => {
  const { service } = await swapService(
    t,
    [
      "relay.meme-buy-degen",
      "lifi.meme-buy-degen-no-route",
      "kyberswap.routes-meme-buy-degen",
      "kyberswap.build-meme-buy-degen",
      "defillama.eth",
    ],
    { env },
  );
  const out = await service.call("memecoin", {
    chain: "base",
    address: degen,
    user: depositor,
    amountWei: "10000000000000000",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = (out.body as any).data;
  const built = await fixtureBody("kyberswap.build-meme-buy-degen");
  assert.equal(data.source, "kyberswap");
  assert.deepEqual(data.evmTransaction, {
    chainId: 8453,
    to: built.data.routerAddress,
    data: built.data.data,
    value: "10000000000000000",
  });
  assert.equal(data.feeBps, 100);
  assert.deepEqual(
    data.alternatives.map((a: any) => a.source),
    ["relay"],
  );
  assert.equal(feeRecipient.length, 42);
});

test("memecoin: parameter checks before any call", async (t) => {
  const { api, service } = await swapService(t, [], { env });
  const cases: [Record<string, string | number>, string][] = [
    [{ chain: "solana", address: degen, user, amountLamports: "1" }, "address"],
    [{ chain: "base", address: degen, user, amountWei: "1" }, "user"],
    [{ chain: "solana", address: bonk, user }, "amount"],
    [{ chain: "solana", side: "sell", address: bonk, user, amountLamports: "5" }, "amount"],
    [{ chain: "solana", address: bonk, user, amount: "5", slippageBps: 5001 }, "slippageBps"],
    [{ chain: "tron", address: bonk, user, amount: "5" }, "chain"],
  ];
  for (const [input, field] of cases) {
    const out = await service.call("memecoin", input);
    assert.equal(out.status, 400, JSON.stringify(input));
    assert.ok(
      (out.body as any).error.details.issues.some((i: any) => i.field === field),
      JSON.stringify(out.body),
    );
  }
  assert.equal(api.calls.length, 0);
});
