import { toHeader } from "../../../helpers/sign.ts";
import { urlOf, type Answer, type Req } from "./way.ts";
import type { Instance } from "./world.ts";

/** The route's v2 PaymentRequired and v1 body, as a client reads them from the 402 (both instances build the same). */
export async function challengeOf(to: Instance, req: Req) {
  const res = await to.fetch(urlOf(to, req));
  if (res.status !== 402) throw new Error(`${req.name} answered ${res.status}, not 402`);
  const v2 = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
  return { v2, v1: await res.json() };
}

/** What a caller that hung up sees: nothing. */
const hungUp = (): Answer => ({ status: 0, body: undefined, headers: new Headers() });

export async function httpSend(
  to: Instance,
  req: Req,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<Answer> {
  try {
    const res = await to.fetch(urlOf(to, req), { headers, signal });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  } catch (error) {
    if (!signal?.aborted) throw error;
    await to.idle();
    return hungUp();
  }
}

/** The payment header of a payload: `PAYMENT-SIGNATURE` for v2, `X-PAYMENT` for v1. */
export const paymentHeaders = (payload: { x402Version: number }) => ({
  [payload.x402Version === 2 ? "payment-signature" : "x-payment"]: toHeader(payload),
});

const statusOfCode: Record<string, number> = {
  effect_failed: 503,
  wallet_required: 403,
  batch_failed: 502,
  bad_request: 400,
  upstream_error: 502,
};

/** A paid tool call over /mcp with the MCP SDK client, the payload in `_meta["x402/payment"]`. */
export async function mcpSend(to: Instance, req: Req, payment?: object, signal?: AbortSignal): Promise<Answer> {
  let result: any;
  try {
    result = await to.mcp.callTool(
      {
        name: "call_endpoint",
        arguments: { name: req.name, arguments: req.args },
        ...(payment ? { _meta: { "x402/payment": payment } } : {}),
      },
      undefined,
      { signal },
    );
  } catch (error) {
    if (!signal?.aborted) throw error;
    await to.idle();
    return hungUp();
  }
  const headers = new Headers();
  const receipt = result._meta?.["x402/payment-response"];
  if (receipt) headers.set("payment-response", toHeader(receipt));
  if (!result.isError) return { status: 200, body: result.structuredContent, headers };
  const required = result.structuredContent;
  if (required?.reason === "payment_already_used") return { status: 409, body: required, headers };
  if (required?.accepts) return { status: 402, body: required, headers };
  const body = JSON.parse(result.content[0].text);
  return { status: statusOfCode[body.error?.code] ?? 500, body, headers };
}
