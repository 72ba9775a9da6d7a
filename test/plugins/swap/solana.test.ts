import { test } from "node:test";
import assert from "node:assert/strict";
import { getBase58Decoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit";
import { loadFixture, type Fixture } from "../../helpers/fixtures.ts";
import { depositor, dir, feeRecipient, fixtureBody, swapService } from "./_service.ts";
import { dataOf, errorOf, issuesOf } from "../../helpers/expect.ts";
import memecoinEndpoint from "../../../plugins/swap/memecoin.ts";
import tradeSolanaEndpoint from "../../../plugins/swap/trade-solana.ts";

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

/** The transaction's message as a wallet reads it: fee payer first, the blockhash, the lookups used. */
function decoded(base64: string) {
  const tx = getTransactionDecoder().decode(new Uint8Array(Buffer.from(base64, "base64")));
  return {
    signers: Object.keys(tx.signatures),
    message: getCompiledTransactionMessageDecoder().decode(tx.messageBytes),
  };
}

test("trade-solana: one Jupiter v2 build, assembled into the unsigned v0 transaction the user signs, with token cards", async (t) => {
  const { api, service } = await swapService(t, ["jupiter.build-sol-usdc", "jupiter.tokens-sol-usdc"], { env });
  const out = await service.call(tradeSolanaEndpoint, {
    user,
    inputMint: sol,
    outputMint: usdc,
    amount: "1000000000",
    enrich: true,
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  const built = await fixtureBody("jupiter.build-sol-usdc");
  assert.equal(data.outAmount, "182764500");
  assert.equal(data.minOutAmount, "181850677");
  assert.equal(data.priceImpactPct, "0.0003");
  assert.deepEqual(data.platformFee, { feeBps: 100, amount: "1846106", mint: usdc, account: feeAccounts.usdc });
  assert.equal(data.route[0].percent, 100);
  assert.equal(data.transaction.lastValidBlockHeight, 367891234);
  const { signers, message } = decoded(data.transaction.swapTransaction);
  assert.deepEqual(signers, [user], "only the user signs, and pays");
  assert.equal(message.staticAccounts[0], user);
  assert.equal(
    message.lifetimeToken,
    getBase58Decoder().decode(Uint8Array.from(built.blockhashWithMetadata.blockhash)),
  );
  assert.equal(message.instructions.length, 2 + 3 + 1 + 1, "compute budget, setup, swap, cleanup");
  const [table] = Object.keys(built.addressesByLookupTableAddress);
  assert.deepEqual(
    (message as { addressTableLookups?: { lookupTableAddress: string }[] }).addressTableLookups?.map(
      (l) => l.lookupTableAddress,
    ),
    [table],
  );
  const swapIx = message.instructions[5];
  assert.equal(message.staticAccounts[swapIx.programAddressIndex], built.swapInstruction.programId);
  assert.equal(Buffer.from(swapIx.data!).toString("base64"), built.swapInstruction.data);
  assert.deepEqual(
    data.tokens!.map((c: any) => [c.symbol, c.decimals, c.usdPrice]),
    [
      ["SOL", 9, 184.61],
      ["USDC", 6, 0.9999],
    ],
  );
  const query = new URL(api.calls.find((c) => c.path.startsWith("/jupiter/swap/v2/build"))!.path, "http://x")
    .searchParams;
  assert.equal(query.get("taker"), user);
  assert.equal(query.get("feeAccount"), feeAccounts.usdc);
  assert.ok(!api.calls.some((c) => c.path.includes("/swap/v1/")), "the deprecated v1 is not called");
  assert.equal(api.calls[0].headers["x-api-key"], "test-jupiter-key");
});

test("trade-solana: Jupiter failing is a 502", async (t) => {
  const build = await loadFixture("jupiter.build-sol-usdc", dir);
  const { service } = await swapService(
    t,
    [
      {
        source: "https://dev.jup.ag/docs/swap/v2/order-and-execute (errors: {error, errorCode})",
        request: build.request,
        response: { status: 400, body: { error: "Could not find any route", errorCode: "COULD_NOT_FIND_ANY_ROUTE" } },
      },
    ],
    { env },
  );
  const out = await service.call(tradeSolanaEndpoint, { user, inputMint: sol, outputMint: usdc, amount: "1000000000" });
  assert.equal(out.status, 502);
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
  const same = await service.call(tradeSolanaEndpoint, { ...base, outputMint: sol });
  assert.equal(same.status, 400);
  assert.equal(issuesOf(same)[0].field, "outputMint");
  assert.equal(api.calls.length, 0);
});

test("memecoin: a Solana buy spends amountLamports of SOL through Jupiter", async (t) => {
  const { service } = await swapService(t, ["jupiter.build-sol-bonk"], { env });
  const out = await service.call(memecoinEndpoint, { address: bonk, user, amountLamports: "100000000" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.source, "jupiter");
  assert.equal(data.slippageBps, 300);
  assert.equal(data.feeBps, 100);
  assert.equal(data.amountOut, "872345678901");
  assert.equal(decoded(data.solanaTransaction!.swapTransaction).message.staticAccounts[0], user);
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
  const out = await service.call(memecoinEndpoint, {
    chain: "base",
    address: degen,
    user: depositor,
    amountWei: "10000000000000000",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
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
      issuesOf(out).some((i: any) => i.field === field),
      JSON.stringify(out.body),
    );
  }
  assert.equal(api.calls.length, 0);
});

/** A memecoin EVM fixture as sent with another slippage tolerance, in each aggregator's own unit. */
async function atSlippage(name: string, bps: number): Promise<Fixture> {
  const f = await loadFixture(name, dir);
  const body = f.request.body as any;
  if (name.startsWith("relay."))
    return { ...f, request: { ...f.request, body: { ...body, slippageTolerance: String(bps) } } };
  if (name.startsWith("kyberswap.build"))
    return { ...f, request: { ...f.request, body: { ...body, slippageTolerance: bps } } };
  if (name.startsWith("lifi."))
    return {
      ...f,
      request: { ...f.request, path: f.request.path.replace("slippage=0.03", `slippage=${bps / 10_000}`) },
    };
  return f;
}

test("memecoin: without a Jupiter key the EVM path is mounted and works at most 2000 bps of slippage; the Solana path is a free 503", async (t) => {
  const fixtures = await Promise.all(
    [
      "relay.meme-buy-degen",
      "lifi.meme-buy-degen-no-route",
      "kyberswap.routes-meme-buy-degen",
      "kyberswap.build-meme-buy-degen",
    ].map((name) => atSlippage(name, 2000)),
  );
  const { api, service } = await swapService(t, [...fixtures, "defillama.eth"], {
    env: { ...env, UPSTREAM_JUPITER_KEY: "" },
  });
  const evm = await service.call(memecoinEndpoint, {
    chain: "base",
    address: degen,
    user: depositor,
    amountWei: "10000000000000000",
    slippageBps: 5000,
  });
  assert.equal(evm.status, 200, JSON.stringify(evm.body));
  assert.equal(dataOf(evm).slippageBps, 2000);
  const build = JSON.parse(api.calls.find((c) => c.path.endsWith("/route/build"))!.body);
  assert.equal(build.slippageTolerance, 2000, "KyberSwap's range ends at 2000");
  const solana = await service.call(memecoinEndpoint, { address: bonk, user, amountLamports: "100000000" });
  assert.equal(solana.status, 503);
  assert.equal(errorOf(solana).code, "not_configured");
  assert.ok(!api.calls.some((c) => c.path.startsWith("/jupiter/")));
  const tradeSolana = await service.request(
    `/v1/trade-solana?${new URLSearchParams({ user, inputMint: sol, outputMint: usdc, amount: "1" })}`,
  );
  assert.equal(tradeSolana.status, 404, "trade-solana needs the key and is not mounted");
});
