import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as VoucherClient } from "@x402/evm/batch-settlement/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { UptoEvmScheme as UptoClient } from "@x402/evm/upto/client";
import { createPublicClient, http } from "viem";
import type { LocalAccount } from "viem/accounts";
import { encodeHeader } from "../../core/x402/challenge.ts";
import { devnetChain } from "../../core/x402/devnet/index.ts";
import type { Devnet, startPaidService } from "./paid.ts";

type Service = Awaited<ReturnType<typeof startPaidService>>;

/** Every way a caller can pay the service, each through its real client. */
export const ways = ["exact", "credit", "mcp", "upto", "voucher"] as const;
export type Way = (typeof ways)[number];

/** A call as an agent makes it: a route, its method and its arguments (query or JSON body; MCP tool arguments). */
export interface Request {
  path: string;
  method: "GET" | "POST";
  args: Record<string, unknown>;
}

export interface Answer {
  /** The HTTP status; over MCP, 200 for a result and 0 for an error result. */
  status: number;
  body: any;
  /** The payload the call was paid with (a voucher names its channel). */
  payload?: PaymentPayload;
}

const decode = (header: string) => JSON.parse(Buffer.from(header, "base64").toString("utf8"));

/**
 * A payer of dev account `account` that pays `way`: exact (v2 EIP-3009), upto (Permit2), voucher (a channel of
 * its own, deposited on the first call), MCP (exact, through call_endpoint), or a credit code it is given.
 */
export function payerOf(devnet: Devnet, account: LocalAccount, way: Way, options: { deposit?: bigint } = {}) {
  const reader = createPublicClient({ chain: devnetChain(devnet.rpcUrl), transport: http(devnet.rpcUrl) });
  const signer = toClientEvmSigner(account, reader);
  const scheme =
    way === "upto"
      ? new UptoClient(signer)
      : way === "voucher"
        ? new VoucherClient(signer, { depositStrategy: () => String(options.deposit ?? 1_000_000n) })
        : new ExactEvmScheme(signer);
  const client = new x402Client().register(devnet.network, scheme).setSpendControls(false);
  const wanted = way === "voucher" ? "batch-settlement" : way === "upto" ? "upto" : "exact";
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === wanted));

  const send = (service: Service, req: Request, headers: Record<string, string> = {}) => {
    if (req.method === "POST")
      return service.fetch(`${service.baseUrl}${req.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(req.args),
      });
    const query = new URLSearchParams(
      Object.entries(req.args).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
    );
    return service.fetch(`${service.baseUrl}${req.path}?${query}`, { headers });
  };

  async function overHttp(service: Service, req: Request, creditCode?: string): Promise<Answer> {
    if (creditCode) {
      const res = await send(service, req, { "x-credit-code": creditCode });
      return { status: res.status, body: await res.json() };
    }
    const unpaid = await send(service, req);
    await unpaid.body?.cancel();
    if (unpaid.status !== 402) throw new Error(`${req.path} answered ${unpaid.status}, not 402`);
    const required = decode(unpaid.headers.get("payment-required")!) as PaymentRequired;
    const payload = await client.createPaymentPayload(required);
    const res = await send(service, req, { "payment-signature": encodeHeader(payload) });
    const receipt = res.headers.get("payment-response");
    if (receipt && way === "voucher")
      await client.handlePaymentResponse({
        paymentPayload: payload,
        requirements: payload.accepted,
        settleResponse: decode(receipt),
      });
    return { status: res.status, body: await res.json(), payload };
  }

  async function overMcp(service: Service, req: Request): Promise<Answer> {
    const mcp = new Client({ name: "ways", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`), { fetch: service.fetch }));
    try {
      const call = (meta?: Record<string, unknown>) =>
        mcp.callTool({
          name: "call_endpoint",
          arguments: { name: req.path, arguments: req.args },
          ...(meta ? { _meta: meta } : {}),
        }) as Promise<any>;
      const unpaid = await call();
      const payload = await client.createPaymentPayload(unpaid.structuredContent);
      const result = await call({ "x402/payment": payload });
      return { status: result.isError ? 0 : 200, body: JSON.parse(result.content[0].text), payload };
    } finally {
      await mcp.close();
    }
  }

  return {
    address: account.address,
    /** One paid call; a credit code pays only `way` "credit". */
    pay: (service: Service, req: Request, creditCode?: string) =>
      way === "mcp" ? overMcp(service, req) : overHttp(service, req, way === "credit" ? creditCode : undefined),
  };
}
