import { evmFateReader } from "../../evm-fate.ts";
import type { X402Scheme } from "../../scheme.ts";
import type { PaymentPayloadV2 } from "../../codec.ts";
import { bindUpto } from "./bind.ts";
import { uptoFateOf } from "./fate.ts";
import { uptoTerms } from "./terms.ts";

export const upto: X402Scheme = {
  terms: uptoTerms,
  takes: { scheme: "upto", namespace: "eip155" },
  // v2 only (the table gives it no v1 payload).
  bind: (decoded, route, nowSeconds, parts) =>
    bindUpto(decoded.payload as PaymentPayloadV2, route, nowSeconds, parts, parts.clockSkewSeconds),
  fate: ({ logWindow }) => evmFateReader(uptoFateOf, logWindow),
};
