import * as v from "valibot";
import { privateKeyToAccount } from "viem/accounts";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, notFound } from "../../core/runtime/errors.ts";
import { isFree } from "../../core/shared.ts";
import { siteSettings } from "./_settings.ts";
import { requestFor } from "./_request.js";

const Address = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/));

export default defineEndpoint({
  name: "site/devnet-pay",
  method: "POST",
  path: "/site/api/devnet-pay",
  price: "$0",
  summary:
    "Devnet only: pays one call of a paid endpoint with the dev payer's test USDC and returns the answer and the receipt",
  description:
    "Mounted only when the service runs its own devnet, which provides DEVNET_PAYER_KEY and DEVNET_SELF_URL. The call goes through the real x402 client and the service's own payment gate.",
  input: v.object({
    name: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(100),
      v.description("The catalog name of a paid endpoint, e.g. hash"),
    ),
    input: v.optional(
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.description("The endpoint's input: its query parameters (GET) or JSON body (POST)"),
      ),
      {},
    ),
  }),
  output: v.object({
    request: v.pipe(v.string(), v.description("Method and URL of the paid call")),
    status: v.pipe(v.number(), v.description("HTTP status of the paid call")),
    answer: v.pipe(
      v.unknown(),
      v.description("The endpoint's JSON answer (its {meta, data} envelope, or the error body)"),
    ),
    receipt: v.optional(
      v.pipe(
        v.object({
          success: v.boolean(),
          transaction: v.pipe(v.string(), v.description("The settlement's transaction hash on the devnet")),
          network: v.string(),
          payer: Address,
        }),
        v.description("The decoded PAYMENT-RESPONSE header, when the call was paid"),
      ),
    ),
    payer: v.pipe(Address, v.description("The dev payer's address")),
  }),
  example: {
    input: { name: "hash", input: { text: "hi" } },
    output: {
      request: "GET /v1/hash?text=hi",
      status: 200,
      answer: {
        meta: { product: "converters", endpoint: "hash", ts: "2026-11-21T11:58:54.050Z" },
        data: {
          algo: "sha256",
          hex: "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4",
          base64: "j0NDRmSPa5bfid2pAcUXaxCm2Dlh3TwayItZstwyeqQ=",
          bytes: 2,
        },
      },
      receipt: {
        success: true,
        transaction: "0xfaf9aaf11cc9102d3ab3638febab32c167e3d5d3593263f55aaed8d8043d4d6b",
        network: "eip155:84532",
        payer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      },
      payer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    },
  },
  requires: ["DEVNET_PAYER_KEY", "DEVNET_SELF_URL"],
  timeoutMs: 60_000,
  settings: siteSettings,
  async handler({ input, catalog, signal, settings }) {
    const endpoint = catalog.find((e) => e.name === input.name);
    if (!endpoint) throw notFound(`No endpoint named ${input.name} is loaded`);
    if (isFree(endpoint))
      throw badRequest(`${input.name} is free: call it directly`, {
        issues: [{ field: "name", message: "must name a paid endpoint" }],
      });
    // The x402 client libraries are only needed here: loaded on the first call, not at boot.
    const [{ wrapFetchWithPayment, x402Client, decodePaymentResponseHeader }, { registerExactEvmScheme }] =
      await Promise.all([import("@x402/fetch"), import("@x402/evm/exact/client")]);
    const account = privateKeyToAccount(settings.devnetPayerKey!);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: account });
    // The devnet token is not one of the client's default assets, so its default spend controls would refuse it.
    client.setSpendControls(false);
    const pay = wrapFetchWithPayment(fetch, client);
    // The target is this service itself (never a caller-chosen host): a loaded endpoint's path on DEVNET_SELF_URL.
    const { url, init } = requestFor(endpoint, input.input, settings.devnetSelfUrl!);
    const res = await pay(url, { ...init, signal });
    const header = res.headers.get("payment-response");
    const settled = header ? decodePaymentResponseHeader(header) : undefined;
    const answer = await res.json().catch(() => null);
    const target = new URL(url);
    return {
      request: `${endpoint.method} ${target.pathname}${target.search}`,
      status: res.status,
      answer,
      ...(settled
        ? {
            receipt: {
              success: settled.success,
              transaction: settled.transaction,
              network: settled.network,
              payer: settled.payer ?? account.address,
            },
          }
        : {}),
      payer: account.address,
    };
  },
});
