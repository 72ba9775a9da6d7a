import { PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import type { PaymentHeader } from "../../codec.ts";

/**
 * A payment header's JSON as the voucher path reads it. A client echoes every extension of our 402 in each payment
 * (the bazaar's input and output schemas are 1.8 KB of a plain voucher's 3.2 KB header), and a plain voucher reads
 * none but the payer's payment identifier and sends none on: the others are stepped over, never parsed. Everything
 * else is parsed with JSON.parse, so it is checked as a whole header is. Anything but a plain batch-settlement
 * voucher (a deposit or a refund, whose payload goes on to the facilitator), or a header this reader cannot step
 * through, is parsed whole.
 */
export function voucherJsonOf(header: PaymentHeader): unknown {
  const { text } = header;
  if (header.version !== 2 || !text?.includes('"batch-settlement"')) return header.read;
  const top = objectAt(text, 0, "extensions");
  const at = top?.members.get("extensions");
  if (!top?.inner || !at) return header.read;
  let json: { accepted?: { scheme?: unknown }; payload?: { type?: unknown }; extensions?: object } | null;
  try {
    json = JSON.parse(`${text.slice(0, at[0])}null${text.slice(at[1])}`);
    if (json?.accepted?.scheme !== "batch-settlement" || json.payload?.type !== "voucher") return header.read;
    const id = top.inner.get(PAYMENT_IDENTIFIER);
    json.extensions = id ? { [PAYMENT_IDENTIFIER]: JSON.parse(text.slice(id[0], id[1])) } : {};
  } catch {
    return header.read;
  }
  return json;
}

type Members = Map<string, [number, number]>;

/** JSON whitespace: space, tab, line feed, carriage return. */
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

function skipSpace(text: string, i: number) {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index of the quote that closes the string opening at `i` (one not escaped by an odd run of backslashes), or -1. */
function stringEnd(text: string, i: number) {
  for (let q = text.indexOf('"', i + 1); q >= 0; q = text.indexOf('"', q + 1)) {
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/** Where the JSON value starting at `i` ends (exclusive), by its quotes and brackets; its content is not checked. */
function valueEnd(text: string, i: number): number | undefined {
  const first = text.charCodeAt(i);
  if (first === 34) {
    const end = stringEnd(text, i);
    return end < 0 ? undefined : end + 1;
  }
  if (first !== 123 && first !== 91) {
    for (let j = i; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 44 || c === 125 || c === 93) return j;
    }
    return undefined;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) {
      j = stringEnd(text, j);
      if (j < 0) return undefined;
    } else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) return j + 1;
  }
  return undefined;
}

/**
 * Where each member's value lies in the JSON object starting at `at` in `text` ([start, end); of a key named twice,
 * the last, as JSON.parse keeps it), with the members of its member `open` when that is an object too; undefined
 * when this cannot step through it (not an object, a key with an escape, a quote or bracket left open).
 */
function objectAt(
  text: string,
  at: number,
  open?: string,
): { members: Members; inner?: Members; end: number } | undefined {
  const members: Members = new Map();
  let inner: Members | undefined;
  let i = skipSpace(text, at);
  if (text.charCodeAt(i) !== 123) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 125) return { members, end: i + 1 };
  for (;;) {
    if (text.charCodeAt(i) !== 34) return undefined;
    const close = stringEnd(text, i);
    if (close < 0) return undefined;
    const key = text.slice(i + 1, close);
    if (key.includes("\\")) return undefined;
    i = skipSpace(text, close + 1);
    if (text.charCodeAt(i) !== 58) return undefined;
    const start = skipSpace(text, i + 1);
    const object = key === open && text.charCodeAt(start) === 123 ? objectAt(text, start) : undefined;
    if (key === open) inner = object?.members;
    const end = object ? object.end : valueEnd(text, start);
    if (end === undefined) return undefined;
    members.set(key, [start, end]);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === 125) return { members, inner, end: i + 1 };
    if (text.charCodeAt(i) !== 44) return undefined;
    i = skipSpace(text, i + 1);
  }
}
