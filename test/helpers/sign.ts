import { randomBytes } from "node:crypto";
import { authorizationTypes } from "@x402/evm";
import type { LocalAccount } from "viem/accounts";

export interface Requirements {
  network: string;
  amount?: string;
  maxAmountRequired?: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
  [k: string]: unknown;
}

export const randomNonce = () => `0x${randomBytes(32).toString("hex")}` as `0x${string}`;

/** Signs an EIP-3009 authorization the way the real clients do; `change` alters what is signed and sent. */
export async function signAuthorization(
  account: LocalAccount,
  r: Requirements,
  change: Record<string, string> = {},
  signer: LocalAccount = account,
) {
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: account.address,
    to: r.payTo,
    value: (r.amount ?? r.maxAmountRequired)!,
    validAfter: String(now - 600),
    validBefore: String(now + r.maxTimeoutSeconds),
    nonce: randomNonce() as string,
    ...change,
  };
  const chainId = r.network.startsWith("eip155:") ? Number(r.network.slice(7)) : 84532;
  const signature = await signer.signTypedData({
    domain: { name: r.extra.name, version: r.extra.version, chainId, verifyingContract: r.asset as `0x${string}` },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      from: authorization.from as `0x${string}`,
      to: authorization.to as `0x${string}`,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce as `0x${string}`,
    },
  });
  return { authorization, signature };
}

export const toHeader = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString("base64");

/** The v2 `PaymentRequired` of a route, read from its 402 like a client would. */
export async function challengeOf(fetchApp: typeof fetch, url: string) {
  const res = await fetchApp(url);
  if (res.status !== 402) throw new Error(`${url} answered ${res.status}, not 402`);
  return JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
}

/** A v2 payment header for the route's first offer; `paymentId` adds the payer's payment-identifier (the secret a retry repeats). */
export async function v2Header(
  account: LocalAccount,
  required: any,
  change: Record<string, string> = {},
  signer?: LocalAccount,
  paymentId?: string,
) {
  const accepted = required.accepts[0];
  const payload = await signAuthorization(account, accepted, change, signer);
  const extensions = paymentId
    ? {
        "payment-identifier": {
          ...required.extensions["payment-identifier"],
          info: { required: false, id: paymentId },
        },
      }
    : undefined;
  return {
    header: toHeader({
      x402Version: 2,
      resource: required.resource,
      accepted,
      payload,
      ...(extensions ? { extensions } : {}),
    }),
    payload,
  };
}

export const newPaymentId = () => `pay_${randomBytes(16).toString("hex")}`;
