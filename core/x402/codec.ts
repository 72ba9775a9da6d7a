import * as v from "valibot";
import { PaymentRejected } from "../payment/payment.ts";
import type { PaymentCredentials } from "../runtime/call.ts";
import { x402Headers } from "./carrier.ts";

/** Decoded headers larger than this are refused before parsing (clients echo extensions, so leave room). */
const maxHeaderBytes = 16_384;

const Hex = (bytes?: number) =>
  v.pipe(v.string(), v.regex(bytes ? new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`) : /^0x[0-9a-fA-F]*$/));
const Uint = v.pipe(v.string(), v.regex(/^\d{1,78}$/));

const Authorization = v.object({
  from: Hex(20),
  to: Hex(20),
  value: Uint,
  validAfter: Uint,
  validBefore: Uint,
  nonce: Hex(32),
});
const ExactPayload = v.object({ signature: Hex(), authorization: Authorization });
/** The exact scheme on Solana: a transaction signed by the payer, the facilitator's fee-payer signature still empty. */
const SvmExactPayload = v.object({
  transaction: v.pipe(v.string(), v.maxLength(4096), v.regex(/^[A-Za-z0-9+/]+={0,2}$/)),
});
/** The upto scheme on EVM: a Permit2 transfer of at most `permitted.amount`, its witness naming payee and settler. */
const Permit2Authorization = v.object({
  from: Hex(20),
  permitted: v.object({ token: Hex(20), amount: Uint }),
  spender: Hex(20),
  nonce: Uint,
  deadline: Uint,
  witness: v.object({ to: Hex(20), facilitator: Hex(20), validAfter: Uint }),
});
const UptoPayload = v.object({ signature: Hex(), permit2Authorization: Permit2Authorization });
/** The exact scheme through Permit2 (a token without EIP-3009): the whole amount, its witness naming payee and start. */
const ExactPermit2Authorization = v.object({
  ...Permit2Authorization.entries,
  witness: v.object({ to: Hex(20), validAfter: Uint }),
});
const ExactPermit2Payload = v.object({ signature: Hex(), permit2Authorization: ExactPermit2Authorization });
const AnyPayload = v.union([ExactPayload, SvmExactPayload, UptoPayload, ExactPermit2Payload]);

const PayloadV1 = v.object({
  x402Version: v.literal(1),
  scheme: v.string(),
  network: v.string(),
  payload: AnyPayload,
});

const PayloadV2 = v.object({
  x402Version: v.literal(2),
  resource: v.optional(v.object({ url: v.string() })),
  accepted: v.object({
    scheme: v.string(),
    network: v.string(),
    amount: v.string(),
    asset: v.string(),
    payTo: v.string(),
    maxTimeoutSeconds: v.number(),
    extra: v.optional(v.record(v.string(), v.unknown())),
  }),
  payload: AnyPayload,
  extensions: v.optional(v.record(v.string(), v.unknown())),
});

export type PaymentPayloadV1 = v.InferOutput<typeof PayloadV1>;
export type PaymentPayloadV2 = v.InferOutput<typeof PayloadV2>;
export type Authorization = v.InferOutput<typeof Authorization>;
export type EvmExactPayload = v.InferOutput<typeof ExactPayload>;
export type SvmPayload = v.InferOutput<typeof SvmExactPayload>;
export type Permit2Authorization = v.InferOutput<typeof Permit2Authorization>;
export type ExactPermit2Authorization = v.InferOutput<typeof ExactPermit2Authorization>;

export type DecodedPayment =
  | { version: 1; payload: PaymentPayloadV1; raw: Record<string, unknown> }
  | { version: 2; payload: PaymentPayloadV2; raw: Record<string, unknown> };

export { PaymentRejected };

/** The JSON a payment header carries (v1 `X-PAYMENT`, v2 `PAYMENT-SIGNATURE`: base64), read once per call. */
function readPaymentHeader(input: string): unknown {
  if (input.length > (maxHeaderBytes * 4) / 3 + 4)
    throw new PaymentRejected("invalid_payload", "The payment header is too large");
  let bytes: string;
  try {
    // atob refuses what is not base64 (Buffer.from skips it), in a third of the time a regex test and Buffer.from took.
    bytes = atob(input);
  } catch {
    throw new PaymentRejected("invalid_payload", "The payment header is not base64");
  }
  try {
    return JSON.parse(Buffer.from(bytes, "latin1").toString("utf8"));
  } catch {
    throw new PaymentRejected("invalid_payload", "The payment header is not base64 JSON");
  }
}

/** What a call's x402 payment header carried: its version, and its JSON or why it carried none that can be read. */
export interface PaymentHeader {
  version: 1 | 2;
  read: unknown;
}

const headers = new WeakMap<PaymentCredentials, PaymentHeader>();

/**
 * A call's x402 payment header, read once per call whichever of the rail's ways asks first (vouchers, then exact and
 * upto). A call without one is not remembered: that is every 402, and it then costs two property reads.
 */
export function paymentHeaderOf(credentials: PaymentCredentials | undefined): PaymentHeader | undefined {
  if (!credentials) return undefined;
  const v2 = credentials[x402Headers.v2];
  const header = v2 ?? credentials[x402Headers.v1];
  if (!header) return undefined;
  let found = headers.get(credentials);
  if (found) return found;
  found = { version: v2 ? 2 : 1, read: undefined };
  try {
    found.read = readPaymentHeader(header);
  } catch (e) {
    found.read = e;
  }
  headers.set(credentials, found);
  return found;
}

/** The JSON a payment header carried, checked for shape. */
export function checkPayment(raw: unknown, expected?: 1 | 2): DecodedPayment {
  const version = (raw as { x402Version?: unknown } | null)?.x402Version;
  if (expected && version !== expected) {
    throw new PaymentRejected(
      "invalid_x402_version",
      `This header carries x402 version ${expected} payloads, not ${String(version)}`,
    );
  }
  const schema = version === 1 ? PayloadV1 : version === 2 ? PayloadV2 : undefined;
  if (!schema) throw new PaymentRejected("invalid_x402_version", "x402Version must be 1 or 2");
  const parsed = v.safeParse(schema, raw);
  if (!parsed.success) {
    const where = parsed.issues
      .map((i) => v.getDotPath(i) ?? "payload")
      .slice(0, 3)
      .join(", ");
    throw new PaymentRejected("invalid_payload", `The payment payload is malformed at ${where}`);
  }
  return { version, payload: parsed.output, raw } as DecodedPayment;
}
