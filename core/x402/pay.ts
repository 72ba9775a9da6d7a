// `npm run pay -- /v1/hash?text=hi` pays a route with the real @x402/fetch client and prints the answer and
// the receipt. It pays from the devnet's dev payer unless PAYER_KEY is set; add `--v1` to pay with x402 v1, or
// `--network solana` to pay on the devnet's local Solana chain (or any Solana network the 402 offers) with @x402/svm.
// `--scheme batch` opens a batch-settlement channel and pays 100 calls with vouchers; `--scheme upto` pays a
// pay-as-used route (the batch) with an upto Permit2 authorization. Both read the chain: RPC_URL, or on the
// devnet the chain the service names in /health. A way to pay the route does not offer is refused in one line.
// `--token dai` (or usdt, usdc, or a token's address) pays with that token: a token without EIP-3009 goes through
// Permit2 with @x402/evm's own exact client; its wallet approves Permit2 once first (the devnet's dev payer has).
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import { toClientEvmSigner } from "@x402/evm";
import { createPublicClient, http } from "viem";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { devAccount, plannedDevnet } from "./devnet/index.ts";
import { presets } from "./options.ts";
import { solanaDevAccount } from "./devnet/solana.ts";
import { svmSignerOf } from "./schemes/exact-svm/facilitator.ts";
import { readToolEnv } from "../runtime/config.ts";
import { payWithVouchers } from "./pay-batch.ts";

const args = process.argv.slice(2);
const flagValue = (flag: string) => (args.indexOf(flag) >= 0 ? args[args.indexOf(flag) + 1] : undefined);
const path = args.find(
  (a, i) => !a.startsWith("--") && !["--body", "--network", "--scheme", "--token"].includes(args[i - 1]),
);
if (!path) {
  console.error(
    "usage: npm run pay -- <path> [--v1] [--network solana] [--scheme batch|upto] [--token usdc|usdt|dai|0x...] [--body '<json>']",
  );
  process.exit(2);
}
const token = flagValue("--token")?.toLowerCase();
const body = flagValue("--body");
const solana = flagValue("--network") === "solana";
const scheme = flagValue("--scheme");
const { baseUrl, payerKey, solanaPayerKey, solanaRpcUrl, rpcUrl: configuredRpcUrl } = readToolEnv();
const VOUCHER_CALLS = 100;

/** Stops with one line on stderr: what went wrong and what to do, no stack trace. */
function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The chain's RPC: RPC_URL, else the devnet's, which the service names in /health. */
async function chainRpcUrl(flag: string): Promise<string> {
  if (configuredRpcUrl) return configuredRpcUrl;
  const health = await fetch(new URL("/health", baseUrl))
    .then((res) => res.json())
    .catch(() => undefined);
  return (
    health?.devnet?.rpcUrl ??
    refuse(`${flag} reads the chain: set RPC_URL (${baseUrl} is not a devnet that names its chain in /health)`)
  );
}

/** The ways a route's 402 offers to pay (scheme on network), none when it answers anything but a 402. */
async function offers(url: URL, init: RequestInit) {
  const res = await fetch(url, init).catch((error: Error) => refuse(`${url.origin} does not answer: ${error.message}`));
  const header = res.headers.get("payment-required");
  await res.body?.cancel();
  if (res.status !== 402 || !header) return undefined;
  return JSON.parse(Buffer.from(header, "base64").toString()).accepts as { scheme: string; network: string }[];
}

const fitting = (accepts: { scheme: string; network: string }[], wanted: string) =>
  accepts.some(
    (a) => a.scheme === wanted && (solana ? a.network.startsWith("solana:") : a.network.startsWith("eip155:")),
  );

/**
 * The call to pay: the one asked for when its route offers the way asked for (`--scheme`, `--network solana`); a
 * fixed-price route asked to pay with upto goes as the one call of the batch, the route that pays as used; else
 * it stops with one line naming what the route offers.
 */
async function callToPay(url: URL, init: RequestInit): Promise<{ url: URL; init: RequestInit }> {
  const accepts = await offers(url, init);
  if (!accepts) return { url, init };
  const wanted = { batch: "batch-settlement", upto: "upto" }[scheme ?? ""] ?? "exact";
  if (fitting(accepts, wanted)) return { url, init };
  if (wanted === "upto" && url.pathname !== "/v1/batch") {
    const params = init.body ? JSON.parse(String(init.body)) : Object.fromEntries(url.searchParams);
    const batch = {
      url: new URL("/v1/batch", url),
      init: {
        method: "POST",
        body: JSON.stringify({ calls: [{ path: url.pathname, params }] }),
        headers: { "content-type": "application/json" },
      },
    };
    const batchAccepts = await offers(batch.url, batch.init);
    if (batchAccepts && fitting(batchAccepts, "upto")) {
      console.log(`${url.pathname} has a fixed price: paying it with upto as the one call of /v1/batch`);
      return batch;
    }
  }
  const offered = [...new Set(accepts.map((a) => `${a.scheme} on ${a.network}`))].join(", ");
  const hint = wanted === "batch-settlement" ? " (vouchers are on with X402_BATCH_SETTLEMENT=on)" : "";
  refuse(`${url.pathname} does not take ${wanted}${solana ? " on Solana" : ""}${hint}; it offers ${offered}`);
}

async function payingFetch(): Promise<{ pay: typeof fetch; from: string }> {
  const client = new x402Client();
  // The devnet tokens are not among the client's default assets, so its default spend controls would refuse them.
  client.setSpendControls(false);
  if (solana) {
    // SOLANA_PAYER_KEY: a wallet's exported secret key (base58, 64 bytes); the devnet's RPC unless SOLANA_RPC_URL.
    const signer = solanaPayerKey ? await svmSignerOf(solanaPayerKey) : (await solanaDevAccount("payer")).signer;
    client.register("solana:*", new ExactSvmScheme(signer, { rpcUrl: solanaRpcUrl ?? "http://127.0.0.1:8899" }));
    return { pay: wrapFetchWithPayment(fetch, client), from: signer.address };
  }
  const account = privateKeyToAccount(payerKey ?? devAccount(2).privateKey);
  if (args.includes("--v1")) {
    const v1 = await import("x402-fetch");
    return { pay: v1.wrapFetchWithPayment(fetch, account as any) as typeof fetch, from: account.address };
  }
  if (scheme === "upto") {
    const rpcUrl = await chainRpcUrl("--scheme upto");
    // Without a Permit2 allowance the client signs an EIP-2612 permit for it, which the settlement submits.
    const reader = createPublicClient({ transport: http(rpcUrl) });
    client.register("eip155:*", new UptoEvmScheme(toClientEvmSigner(account, reader)));
    client.registerPolicy((_version, accepts) => accepts.filter((a) => a.scheme === "upto"));
    return { pay: wrapFetchWithPayment(fetch, client), from: account.address };
  }
  registerExactEvmScheme(client, { signer: account });
  if (token) client.registerPolicy((_version, accepts) => accepts.filter((a) => paysWith(token, a)));
  return { pay: wrapFetchWithPayment(fetch, client), from: account.address };
}

/**
 * Whether an offer is in the token `--token` names: an address; `usdc`, an EIP-3009 offer; another symbol, the
 * assets of its presets (`ethereum-usdt`, `arbitrum-dai`, ...) and, for `dai`, the devnet's test DAI.
 */
function paysWith(name: string, offer: { asset: string; extra?: Record<string, unknown> }) {
  if (name.startsWith("0x")) return offer.asset.toLowerCase() === name;
  if (name === "usdc") return !offer.extra?.assetTransferMethod;
  const assets = Object.entries(presets)
    .filter(([preset]) => preset.endsWith(`-${name}`))
    .map(([, preset]) => preset().asset);
  if (name === "dai") assets.push(plannedDevnet([]).tokens.dai);
  return assets.some((asset) => asset.toLowerCase() === offer.asset.toLowerCase());
}
const asked = {
  url: new URL(path, baseUrl),
  init: (body ? { method: "POST", body, headers: { "content-type": "application/json" } } : {}) as RequestInit,
};
if (scheme && scheme !== "batch" && scheme !== "upto") refuse(`--scheme ${scheme}: batch or upto (exact without it)`);
const { url, init } = args.includes("--v1") ? asked : await callToPay(asked.url, asked.init);
if (scheme === "batch") {
  const rpcUrl = await chainRpcUrl("--scheme batch");
  const account = privateKeyToAccount(payerKey ?? devAccount(2).privateKey);
  console.log(`paying ${VOUCHER_CALLS} calls of ${init.method ?? "GET"} ${url} with vouchers from ${account.address}`);
  process.exit((await payWithVouchers({ url, init, account, rpcUrl, calls: VOUCHER_CALLS })) ? 0 : 1);
}
const { pay, from } = await payingFetch();

console.log(`paying ${init.method ?? "GET"} ${url} from ${from}${solana ? " on Solana" : ""}`);
const res = await pay(url, init);
console.log(`HTTP ${res.status}`);
console.log(JSON.stringify(await res.json().catch(() => null), null, 2));
const receipt = res.headers.get("payment-response") ?? res.headers.get("x-payment-response");
if (receipt) console.log("receipt:", decodePaymentResponseHeader(receipt));
process.exit(res.ok ? 0 : 1);
