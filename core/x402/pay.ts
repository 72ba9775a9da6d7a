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
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { devAccount, plannedDevnet } from "./devnet/index.ts";
import { presets } from "./options.ts";
import { solanaDevAccount } from "./devnet/solana.ts";
import { svmSignerOf } from "./schemes/exact-svm/facilitator.ts";
import { readToolEnv } from "../runtime/config.ts";
import { decodeHeader } from "../shared.ts";
import { payWithVouchers } from "./schemes/batch-settlement/pay.ts";
import { asTheBatchsOneCall, payWithUpto } from "./schemes/upto/pay.ts";

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
const schemeFlag = flagValue("--scheme");
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
  return decodeHeader<{ accepts: { scheme: string; network: string }[] }>(header).accepts;
}

/** The route offers the scheme wanted on the family of networks asked for (`--network solana`, else EVM). */
const fitting = (accepts: { scheme: string; network: string }[], wanted: string) =>
  new Set(accepts.map((a) => `${a.scheme} on ${a.network.split(":")[0]}`)).has(
    `${wanted} on ${solana ? "solana" : "eip155"}`,
  );

/** A way to pay `--scheme` names: its x402 scheme, and what it does beyond registering `exact` on the client. */
interface Way {
  scheme: string;
  /** Where a route that does not offer it can still be paid with it. */
  reroute?: (url: URL, init: RequestInit) => { url: URL; init: RequestInit } | undefined;
  /** Said when the route does not offer it. */
  hint?: string;
  /** Its client, instead of exact's. */
  register?: (client: x402Client, account: ReturnType<typeof privateKeyToAccount>) => Promise<void>;
  /** Pays the whole run itself (many calls): whether every call was answered. */
  run?: (url: URL, init: RequestInit) => Promise<boolean>;
}

const exactWay: Way = { scheme: "exact" };
const ways: Record<string, Way> = {
  batch: {
    scheme: "batch-settlement",
    hint: " (vouchers are on with X402_BATCH_SETTLEMENT=on)",
    async run(url, init) {
      const rpcUrl = await chainRpcUrl("--scheme batch");
      const account = privateKeyToAccount(payerKey ?? devAccount(2).privateKey);
      console.log(
        `paying ${VOUCHER_CALLS} calls of ${init.method ?? "GET"} ${url} with vouchers from ${account.address}`,
      );
      return payWithVouchers({ url, init, account, rpcUrl, calls: VOUCHER_CALLS });
    },
  },
  upto: {
    scheme: "upto",
    reroute: asTheBatchsOneCall,
    register: async (client, account) => payWithUpto(client, account, await chainRpcUrl("--scheme upto")),
  },
};
if (schemeFlag && !Object.hasOwn(ways, schemeFlag))
  refuse(`--scheme ${schemeFlag}: ${Object.keys(ways).join(" or ")} (exact without it)`);
const way = schemeFlag ? ways[schemeFlag] : exactWay;

/**
 * The call to pay: the one asked for when its route offers the way asked for (`--scheme`, `--network solana`), or
 * where the way pays a route that does not offer it (upto: as the one call of the batch); else it stops with one
 * line naming what the route offers.
 */
async function callToPay(url: URL, init: RequestInit): Promise<{ url: URL; init: RequestInit }> {
  const accepts = await offers(url, init);
  if (!accepts) return { url, init };
  const wanted = way.scheme;
  if (fitting(accepts, wanted)) return { url, init };
  const elsewhere = way.reroute?.(url, init);
  if (elsewhere) {
    const elsewhereAccepts = await offers(elsewhere.url, elsewhere.init);
    if (elsewhereAccepts && fitting(elsewhereAccepts, wanted)) {
      console.log(
        `${url.pathname} has a fixed price: paying it with ${wanted} as the one call of ${elsewhere.url.pathname}`,
      );
      return elsewhere;
    }
  }
  const offered = [...new Set(accepts.map((a) => `${a.scheme} on ${a.network}`))].join(", ");
  refuse(`${url.pathname} does not take ${wanted}${solana ? " on Solana" : ""}${way.hint ?? ""}; it offers ${offered}`);
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
  if (way.register) await way.register(client, account);
  else registerExactEvmScheme(client, { signer: account });
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
const { url, init } = args.includes("--v1") ? asked : await callToPay(asked.url, asked.init);
if (way.run) process.exit((await way.run(url, init)) ? 0 : 1);
const { pay, from } = await payingFetch();

console.log(`paying ${init.method ?? "GET"} ${url} from ${from}${solana ? " on Solana" : ""}`);
const res = await pay(url, init);
console.log(`HTTP ${res.status}`);
console.log(JSON.stringify(await res.json().catch(() => null), null, 2));
const receipt = res.headers.get("payment-response") ?? res.headers.get("x-payment-response");
if (receipt) console.log("receipt:", decodePaymentResponseHeader(receipt));
process.exit(res.ok ? 0 : 1);
