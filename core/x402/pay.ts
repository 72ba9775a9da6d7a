// `npm run pay -- /v1/hash?text=hi` pays a route with the real @x402/fetch client and prints the answer and
// the receipt. It pays from the devnet's dev payer unless PAYER_KEY is set; add `--v1` to pay with x402 v1.
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { devAccount } from "./devnet/index.ts";
import { readToolEnv } from "../runtime/config.ts";

const args = process.argv.slice(2);
const path = args.find((a) => !a.startsWith("--"));
if (!path) {
  console.error("usage: npm run pay -- <path> [--v1] [--body '<json>']");
  process.exit(2);
}
const bodyAt = args.indexOf("--body");
const body = bodyAt >= 0 ? args[bodyAt + 1] : undefined;
const { baseUrl, payerKey } = readToolEnv();
const account = privateKeyToAccount(payerKey ?? devAccount(2).privateKey);

async function payingFetch(): Promise<typeof fetch> {
  if (args.includes("--v1")) {
    const v1 = await import("x402-fetch");
    return v1.wrapFetchWithPayment(fetch, account as any) as typeof fetch;
  }
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  // The devnet token is not one of the client's default assets, so its default spend controls would refuse it.
  client.setSpendControls(false);
  return wrapFetchWithPayment(fetch, client);
}
const pay = await payingFetch();

const url = new URL(path, baseUrl);
const init: RequestInit = body ? { method: "POST", body, headers: { "content-type": "application/json" } } : {};
console.log(`paying ${init.method ?? "GET"} ${url} from ${account.address}`);
const res = await pay(url, init);
console.log(`HTTP ${res.status}`);
console.log(JSON.stringify(await res.json().catch(() => null), null, 2));
const receipt = res.headers.get("payment-response") ?? res.headers.get("x-payment-response");
if (receipt) console.log("receipt:", decodePaymentResponseHeader(receipt));
process.exit(res.ok ? 0 : 1);
