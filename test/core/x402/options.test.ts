import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_ASSETS } from "@x402/evm";
import { DEFAULT_ASSETS as SVM_ASSETS, SOLANA_DEVNET_CAIP2, SOLANA_MAINNET_CAIP2 } from "@x402/svm";
import pino from "pino";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readConfig } from "../../../core/runtime/config.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { createPayments } from "../../../core/x402/payments.ts";
import { readOptions } from "../../../core/x402/options.ts";
import { buildRequirements } from "../../../core/x402/requirements.ts";
import type { Endpoint } from "../../../core/endpoint.ts";
import { createCredits } from "../../../core/payment/credits.ts";
import { createLedger } from "../../../core/payment/ledger.ts";

const payTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const remote = { PAY_TO: payTo, FACILITATOR_URL: "https://facilitator.example" };
const endpoint = { path: "/v1/hash", summary: "Hash", price: "$0.001" } as unknown as Endpoint;

test("options: without X402_OPTIONS the one option of X402_NETWORK / X402_ASSET stays as before (Base USDC)", () => {
  const [one, ...rest] = readOptions(remote, 300);
  assert.equal(rest.length, 0);
  assert.deepEqual(one.option, {
    network: "eip155:8453",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    payTo,
    decimals: 6,
    extra: { name: "USD Coin", version: "2" },
    maxTimeoutSeconds: 300,
  });
  assert.deepEqual(one.facilitator, { kind: "remote", url: "https://facilitator.example", auth: undefined });
});

test("options: the five USDC presets take their address and EIP-712 domain from @x402/evm's table where it has one", () => {
  const options = readOptions({ ...remote, X402_OPTIONS: "base,polygon,arbitrum,optimism,avalanche" }, 300);
  assert.deepEqual(
    options.map((o) => o.option.network),
    ["eip155:8453", "eip155:137", "eip155:42161", "eip155:10", "eip155:43114"],
  );
  for (const o of options) {
    const table = DEFAULT_ASSETS[o.option.network as keyof typeof DEFAULT_ASSETS]?.[0];
    if (o.name === "optimism") {
      assert.equal(table, undefined, "Optimism is not in @x402/evm 2.27's table");
      assert.deepEqual(
        [o.option.asset, o.option.extra],
        ["0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", { name: "USD Coin", version: "2" }],
      );
    } else {
      assert.deepEqual(
        [o.option.asset, o.option.extra, o.option.decimals],
        [table!.asset, { name: table!.name, version: table!.version }, table!.decimals],
      );
    }
    assert.equal(o.option.payTo, payTo);
  }
});

test("options: per-option variables override the preset and the globals; a local option gets its own RPC and key", () => {
  const [base, polygon, own] = readOptions(
    {
      ...remote,
      X402_OPTIONS: "base,polygon,my-token",
      X402_POLYGON_PAY_TO: "0x1111111111111111111111111111111111111111",
      X402_POLYGON_RPC_URL: "https://polygon.example",
      X402_POLYGON_RELAYER_KEY: `0x${"11".repeat(32)}`,
      X402_POLYGON_FACILITATOR: "local",
      X402_MY_TOKEN_NETWORK: "eip155:8453",
      X402_MY_TOKEN_ASSET: "0x2222222222222222222222222222222222222222",
      X402_MY_TOKEN_ASSET_NAME: "My Token",
      X402_MY_TOKEN_ASSET_VERSION: "1",
      X402_MY_TOKEN_DECIMALS: "18",
    },
    60,
  );
  assert.equal(base.facilitator.kind, "remote");
  assert.deepEqual(polygon.facilitator, {
    kind: "local",
    rpcUrl: "https://polygon.example",
    relayerKey: `0x${"11".repeat(32)}`,
  });
  assert.equal(polygon.option.payTo, "0x1111111111111111111111111111111111111111");
  assert.deepEqual(own.option, {
    network: "eip155:8453",
    asset: "0x2222222222222222222222222222222222222222",
    payTo,
    decimals: 18,
    extra: { name: "My Token", version: "1" },
    maxTimeoutSeconds: 60,
  });
});

test("options: a misconfigured option refuses to boot, every problem named with its option", () => {
  assert.throws(
    () =>
      readOptions(
        {
          X402_OPTIONS: "base,polygon,mystery,arbitrum,base",
          PAY_TO: payTo,
          X402_BASE_FACILITATOR_URL: "https://facilitator.example",
          X402_POLYGON_FACILITATOR: "local",
          X402_ARBITRUM_FACILITATOR_URL: "https://f.example",
          X402_ARBITRUM_PAY_TO: "not-an-address",
        },
        300,
      ),
    (error: Error) => {
      assert.match(error.message, /payment option "polygon": a local facilitator needs X402_POLYGON_RPC_URL/);
      assert.match(error.message, /payment option "polygon": a local facilitator needs X402_POLYGON_RELAYER_KEY/);
      assert.match(
        error.message,
        /payment option "mystery": X402_MYSTERY_NETWORK \(not a preset: base, .*\) is required/,
      );
      assert.match(
        error.message,
        /payment option "arbitrum": X402_ARBITRUM_PAY_TO \(or PAY_TO\) not-an-address is not a 0x address/,
      );
      assert.match(error.message, /payment option "base": listed twice/);
      return true;
    },
  );
  assert.throws(
    () => readOptions({ X402_OPTIONS: "base", FACILITATOR_URL: "https://f.example" }, 300),
    /payment option "base": X402_BASE_PAY_TO \(or PAY_TO\) is required/,
  );
  assert.throws(
    () => readOptions({ X402_OPTIONS: "base", PAY_TO: payTo }, 300),
    /payment option "base": no facilitator/,
  );
  assert.throws(
    () =>
      readOptions(
        {
          ...remote,
          X402_OPTIONS: "base,again",
          X402_AGAIN_NETWORK: "eip155:8453",
          X402_AGAIN_ASSET: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
          X402_AGAIN_ASSET_NAME: "x",
          X402_AGAIN_ASSET_VERSION: "2",
        },
        300,
      ),
    /payment option "again": offers the same token on the same network as "base"/,
  );
  // USDT beside USDC on one network: settled by the same facilitator, or refused (payments are routed by network).
  const usdtBesideUsdc = (extra: Record<string, string>) =>
    readOptions(
      {
        ...remote,
        X402_OPTIONS: "base,tether",
        X402_TETHER_NETWORK: "eip155:8453",
        X402_TETHER_ASSET: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2",
        X402_TETHER_DECIMALS: "6",
        X402_TETHER_TRANSFER_METHOD: "permit2",
        ...extra,
      },
      300,
    );
  assert.equal(usdtBesideUsdc({}).length, 2);
  assert.throws(
    () => usdtBesideUsdc({ X402_TETHER_FACILITATOR_URL: "https://other.example" }),
    /payment option "tether": settles on eip155:8453 through another facilitator than "base"/,
  );
  // The single option of earlier releases names the global variables.
  assert.throws(
    () => readOptions({ PAY_TO: payTo, RELAYER_KEY: `0x${"11".repeat(32)}` }, 300),
    /a local facilitator needs RPC_URL/,
  );
});

test("options: every option is offered in v2; v1 only where x402-fetch 1.x has a name for the network", () => {
  const options = readOptions({ ...remote, X402_OPTIONS: "base,polygon,arbitrum,optimism,avalanche" }, 300).map(
    (o) => o.option,
  );
  const r = buildRequirements(endpoint, options, "https://api.example");
  assert.deepEqual(
    r.v2.map((x) => x.network),
    ["eip155:8453", "eip155:137", "eip155:42161", "eip155:10", "eip155:43114"],
  );
  assert.deepEqual(
    r.v1.map((x) => x.network),
    ["base", "polygon", "avalanche"],
  );
  assert.ok(r.v2.every((x) => x.amount === "1000"));
  assert.equal(r.amount, "1000");
});

test("options: the Solana presets are @x402/svm's USDC; a Solana option needs its own payee, a base58 one", () => {
  const [sol, dev] = readOptions(
    {
      ...remote,
      X402_OPTIONS: "solana,solana-devnet",
      X402_SOLANA_PAY_TO: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
      X402_SOLANA_DEVNET_PAY_TO: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    },
    300,
  );
  assert.deepEqual(
    [sol.option.network, sol.option.asset],
    [SOLANA_MAINNET_CAIP2, SVM_ASSETS[SOLANA_MAINNET_CAIP2][0].asset],
  );
  assert.deepEqual(
    [dev.option.network, dev.option.asset],
    [SOLANA_DEVNET_CAIP2, SVM_ASSETS[SOLANA_DEVNET_CAIP2][0].asset],
  );
  assert.throws(
    () => readOptions({ ...remote, X402_OPTIONS: "solana" }, 300),
    /payment option "solana": X402_SOLANA_PAY_TO is required/,
  );
  assert.throws(
    () => readOptions({ ...remote, X402_OPTIONS: "solana", X402_SOLANA_PAY_TO: payTo }, 300),
    /payment option "solana": X402_SOLANA_PAY_TO 0x.* is not a Solana address/,
  );
  assert.throws(
    () =>
      readOptions(
        {
          ...remote,
          X402_OPTIONS: "solana",
          X402_SOLANA_PAY_TO: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
          X402_SOLANA_FACILITATOR: "local",
          X402_SOLANA_RPC_URL: "http://127.0.0.1:8899",
          X402_SOLANA_RELAYER_KEY: "0x12",
        },
        300,
      ),
    /payment option "solana": X402_SOLANA_RELAYER_KEY is not a Solana secret key/,
  );
});

/** What the service hands the payment setup: a fresh store with its ledger and credits, no devnet contracts. */
function contextOf(log: pino.Logger) {
  const store = createMemoryStore();
  return { store, log, ledger: createLedger(store), credits: createCredits(store), contracts: [] };
}

test("options: a Solana option with a remote facilitator names the fee payer its /supported lists, and refuses to boot when it lists none", async () => {
  const feePayer = "FeePayer1111111111111111111111111111111111";
  const kinds = [{ x402Version: 2, scheme: "exact", network: SOLANA_MAINNET_CAIP2, extra: { feePayer } }];
  const server = createServer((req, res) =>
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ kinds: req.url === "/none/supported" ? [] : kinds })),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = (url: string) => ({
    X402_OPTIONS: "base,solana",
    PAY_TO: payTo,
    X402_SOLANA_PAY_TO: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    FACILITATOR_URL: url,
    LOG_LEVEL: "silent",
    SERVICE_SIGNING_KEY: `0x${"5e".repeat(32)}`,
  });
  const log = pino({ level: "silent" });
  try {
    const payments = await createPayments(readConfig(env(base)), contextOf(log));
    const offers = payments.gate.requirements(endpoint).v2;
    assert.deepEqual(
      offers.map((o) => [o.network, o.extra]),
      [
        ["eip155:8453", { name: "USD Coin", version: "2" }],
        [SOLANA_MAINNET_CAIP2, { feePayer }],
      ],
    );
    assert.deepEqual(
      payments.gate.requirements(endpoint).v1.map((o) => o.network),
      ["base", "solana"],
    );
    await payments.stop();
    await assert.rejects(
      createPayments(readConfig(env(`${base}/none`)), contextOf(log)),
      /payment option "solana": its facilitator does not settle exact payments on solana:5eykt/,
    );
  } finally {
    server.close();
  }
});

const vouchers = { ...remote, X402_BATCH_SETTLEMENT: "on", STORE_URL: "redis://127.0.0.1:6379" };

test("options: with X402_BATCH_SETTLEMENT=on, an EVM option whose authorizer key is set takes vouchers authorized by that key; the others do not", () => {
  const key = `0x${"1".repeat(64)}`;
  const authorizer = "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A";
  const on = readOptions({ ...vouchers, X402_OPTIONS: "base,polygon", X402_BASE_BATCH_AUTHORIZER_KEY: key }, 300);
  assert.deepEqual(on[0].option.batch, { receiverAuthorizer: authorizer, withdrawDelay: 900 });
  assert.equal(on[0].batchAuthorizerKey, key);
  assert.equal(on[1].option.batch, undefined);
  const single = readOptions({ ...vouchers, X402_BATCH_AUTHORIZER_KEY: key }, 300);
  assert.equal(single[0].option.batch?.receiverAuthorizer, authorizer);
  const off = readOptions({ ...remote, X402_OPTIONS: "base", X402_BASE_BATCH_AUTHORIZER_KEY: key }, 300);
  assert.equal(off[0].option.batch, undefined);
});

test("options: vouchers turned on without an authorizer key, on Solana, with a malformed key or without a durable store refuse to boot, naming the variable", () => {
  const refused = (env: Record<string, string>) => {
    try {
      readOptions({ ...vouchers, ...env }, 300);
    } catch (e) {
      return (e as Error).message;
    }
    assert.fail("expected the options to be refused");
  };
  assert.match(refused({ X402_OPTIONS: "base" }), /X402_<NAME>_BATCH_AUTHORIZER_KEY/);
  assert.match(refused({}), /X402_BATCH_AUTHORIZER_KEY/);
  assert.match(
    refused({
      X402_OPTIONS: "base,solana",
      X402_BASE_BATCH_AUTHORIZER_KEY: `0x${"1".repeat(64)}`,
      X402_SOLANA_PAY_TO: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
      X402_SOLANA_BATCH_AUTHORIZER_KEY: `0x${"1".repeat(64)}`,
    }),
    /X402_SOLANA_BATCH_AUTHORIZER_KEY: batch-settlement vouchers are an EVM scheme/,
  );
  assert.match(
    refused({ X402_OPTIONS: "base", X402_BASE_BATCH_AUTHORIZER_KEY: "0x1234" }),
    /X402_BASE_BATCH_AUTHORIZER_KEY is not a 0x 32-byte hex key/,
  );
  const withoutStore = { ...remote, X402_OPTIONS: "base", X402_BATCH_SETTLEMENT: "on" };
  assert.throws(
    () => readOptions({ ...withoutStore, X402_BASE_BATCH_AUTHORIZER_KEY: `0x${"1".repeat(64)}` }, 300),
    /X402_BATCH_SETTLEMENT=on needs STORE_URL/,
  );
});

test("options: X402_UPTO=on offers upto on pay-as-used routes only, naming a local option's relayer or what a remote facilitator's /supported lists", async () => {
  const facilitatorAddress = "0x1111111111111111111111111111111111111111";
  const kinds = [{ x402Version: 2, scheme: "upto", network: "eip155:8453", extra: { facilitatorAddress } }];
  const server = createServer((req, res) =>
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ kinds: req.url === "/none/supported" ? [] : kinds })),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const relayerKey = `0x${"11".repeat(32)}` as const;
  const env = (url: string) => ({
    X402_OPTIONS: "base,base-sepolia",
    PAY_TO: payTo,
    X402_BASE_FACILITATOR_URL: url,
    X402_BASE_SEPOLIA_RPC_URL: "http://127.0.0.1:9",
    X402_BASE_SEPOLIA_RELAYER_KEY: relayerKey,
    X402_UPTO: "on",
    SERVICE_SIGNING_KEY: `0x${"5e".repeat(32)}`,
    LOG_LEVEL: "silent",
  });
  const metered = { ...endpoint, paysAsUsed: true } as Endpoint;
  const log = pino({ level: "silent" });
  try {
    const payments = await createPayments(readConfig(env(base)), contextOf(log));
    assert.deepEqual(payments.gate.requirements(endpoint).upto, []);
    assert.deepEqual(
      payments.gate.requirements(metered).upto.map((r) => [r.network, r.extra.facilitatorAddress]),
      [
        ["eip155:8453", facilitatorAddress],
        ["eip155:84532", "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A"],
      ],
    );
    await payments.stop();
    await assert.rejects(
      createPayments(readConfig(env(`${base}/none`)), contextOf(log)),
      /payment option "base": its facilitator does not settle upto payments on eip155:8453/,
    );
  } finally {
    server.close();
  }
});

test("options: the USDT and DAI presets are paid with exact through Permit2 only, at their issuers' published addresses, v2 only", () => {
  const names =
    "ethereum-usdt,arbitrum-usdt,polygon-usdt,optimism-usdt,avalanche-usdt,ethereum-dai,arbitrum-dai,optimism-dai";
  const options = readOptions({ ...remote, X402_OPTIONS: `base,${names}` }, 300);
  assert.deepEqual(
    options.slice(1).map((o) => [o.name, o.option.network, o.option.asset, o.option.decimals]),
    [
      ["ethereum-usdt", "eip155:1", "0xdAC17F958D2ee523a2206206994597C13D831ec7", 6],
      ["arbitrum-usdt", "eip155:42161", "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", 6],
      ["polygon-usdt", "eip155:137", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", 6],
      ["optimism-usdt", "eip155:10", "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58", 6],
      ["avalanche-usdt", "eip155:43114", "0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7", 6],
      ["ethereum-dai", "eip155:1", "0x6B175474E89094C44Da98b954EedeAC495271d0F", 18],
      ["arbitrum-dai", "eip155:42161", "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1", 18],
      ["optimism-dai", "eip155:10", "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1", 18],
    ],
  );
  for (const o of options.slice(1)) assert.deepEqual(o.option.extra, { assetTransferMethod: "permit2" });
  const route = buildRequirements(endpoint, [options[0].option, options[1].option, options[6].option], "http://x");
  assert.deepEqual(
    route.v2.map((r) => [r.network, r.amount, r.extra.assetTransferMethod]),
    [
      ["eip155:8453", "1000", undefined],
      ["eip155:1", "1000", "permit2"],
      ["eip155:1", "1000000000000000", "permit2"],
    ],
  );
  assert.deepEqual(
    route.v1.map((r) => r.network),
    ["base"],
    "x402 v1's exact is EIP-3009 only",
  );
});

test("options: X402_<NAME>_TRANSFER_METHOD pays any ERC-20 through Permit2 (address and decimals, no EIP-712 domain needed); a token without EIP-3009 refuses eip3009", () => {
  const [token, usdc] = readOptions(
    {
      ...remote,
      X402_OPTIONS: "mytoken,base",
      X402_MYTOKEN_NETWORK: "eip155:8453",
      X402_MYTOKEN_ASSET: "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb",
      X402_MYTOKEN_DECIMALS: "18",
      X402_MYTOKEN_TRANSFER_METHOD: "permit2",
      X402_BASE_TRANSFER_METHOD: "permit2",
    },
    300,
  );
  assert.deepEqual([token.option.decimals, token.option.extra], [18, { assetTransferMethod: "permit2" }]);
  // USDC through Permit2 keeps its EIP-712 domain: its EIP-2612 permit can grant Permit2's allowance.
  assert.deepEqual(usdc.option.extra, { name: "USD Coin", version: "2", assetTransferMethod: "permit2" });
  assert.throws(
    () =>
      readOptions(
        {
          ...remote,
          X402_OPTIONS: "ethereum-usdt,solana,other,ethereum-dai",
          X402_ETHEREUM_USDT_TRANSFER_METHOD: "eip3009",
          X402_SOLANA_PAY_TO: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
          X402_SOLANA_TRANSFER_METHOD: "permit2",
          X402_OTHER_NETWORK: "eip155:1",
          X402_OTHER_ASSET: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
          X402_OTHER_TRANSFER_METHOD: "permit",
          X402_BATCH_SETTLEMENT: "on",
          X402_ETHEREUM_DAI_BATCH_AUTHORIZER_KEY: `0x${"11".repeat(32)}`,
          STORE_URL: "redis://127.0.0.1:6379",
        },
        300,
      ),
    (e: Error) =>
      e.message.includes(
        'payment option "ethereum-usdt": X402_ETHEREUM_USDT_TRANSFER_METHOD: this token has no EIP-3009 (transferWithAuthorization); it is paid with permit2 only',
      ) &&
      e.message.includes(
        'payment option "solana": X402_SOLANA_TRANSFER_METHOD: a transfer method is chosen for EVM tokens only',
      ) &&
      e.message.includes('payment option "other": X402_OTHER_TRANSFER_METHOD permit is not eip3009 or permit2') &&
      e.message.includes(
        'payment option "ethereum-dai": X402_ETHEREUM_DAI_BATCH_AUTHORIZER_KEY: batch-settlement deposits are EIP-3009 transfers, which a permit2 token lacks',
      ),
  );
});
