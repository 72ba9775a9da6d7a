import type { Instance, World } from "./world.ts";

/** The attack classes, the matrix's columns, and what each tries. */
export const classes = {
  copies: "the same payment sent at once to two instances sharing redis-server",
  "hang-ups": "the client hangs up while the handler runs, then retries",
  "failing write": "a write inside a batch or bundle fails after payment",
  identity: "a payment naming a payer who did not sign it",
  spellings: "non-canonical spellings of every field that enters a claim key",
  units: "what is settled and credited, in which units (6 and 18 decimals)",
  schema: "a client-supplied schema with a catastrophic pattern (event-loop delay)",
  cost: "what forged or unfunded payments cost us before payment (RPC, gas, lamports)",
  "lost reply": "the reply to the settlement's send is lost",
  expiry: "a withdrawal or an expiry while the handler runs",
} as const;
export type ClassName = keyof typeof classes;
export const classNames = Object.keys(classes) as ClassName[];

/** A call of a route by its catalog name; GET routes take `args` as their query, MCP as the tool's arguments. */
export interface Req {
  name: string;
  args: Record<string, unknown>;
}

export const pathOf = ({ name, args }: Req) =>
  `/v1/${name}?${new URLSearchParams(
    Object.entries(args).map(([k, v]) => [k, typeof v === "object" ? JSON.stringify(v) : String(v)]),
  )}`;
export const urlOf = (to: Instance, req: Req) => `${to.baseUrl}${pathOf(req)}`;

/** A write of `key` as a batch item. */
export const item = (key: string, effect = "ok", name = "matrix-write") => ({
  path: `/v1/${name}`,
  params: { key, effect },
});
export const batchOf = (...items: ReturnType<typeof item>[]): Req => ({ name: "batch", args: { calls: items } });

/** What came back, whatever the transport: the HTTP status (an MCP result mapped to the one it stands for). */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface Payment {
  /** Sends the payment with its request to one instance; aborting `signal` hangs up mid-call. */
  send(to: Instance, signal?: AbortSignal): Promise<Answer>;
}

export interface Payer {
  /** The identity a route paid by this payer should see. */
  id: string;
  /** A payment for `req`, made as this way's client makes it; `paymentId` adds the payer's payment identifier. */
  pay(req: Req, o?: { paymentId?: string }): Promise<Payment>;
  /** What left the payer since it was made, in the option's units (net of refunds to itself), and transfers to payTo. */
  spent(): Promise<{ value: bigint; transfers: number }>;
}

/** A bound a cell checks: `actual` must be at most `atMost`. */
export interface Bound {
  what: string;
  actual: bigint | number;
  atMost: bigint | number;
}

/**
 * One way to pay: how to build a payment for a request and how to read what it cost. A class that needs a hook the
 * way does not have fails its cell unless the way names the class in `na`, with the reason.
 */
export interface Way {
  name: string;
  /** The service's offers this row pays with (keys as completeness derives them from the 402s). */
  offers: string[];
  /** Classes that do not apply, each with the reason. */
  na: Partial<Record<ClassName, string>>;
  decimals: number;
  /** Settles what the call used (a voucher, an upto permit), not the quote. */
  asUsed?: boolean;
  /** The call that writes `key` with this way (upto pays only pay-as-used routes: the batch around the write). */
  write(key: string): { req: Req; keys: string[] };
  /** The call that reaches a wallet-keyed route, and the keys that route writes. */
  wallet?(key: string): { req: Req; keys: string[] };
  /** What one successful write call moves from the payer, in the option's units. */
  readonly charge: bigint;
  /** A fresh payer holding enough for `calls` write calls (or a batch's quote, whichever is more). */
  payer(calls?: number): Promise<Payer>;
  /** Further ways this row stands for in the classes where decimals matter (the 18-decimal option's upto and vouchers). */
  variants?: Way[];
  /** The call whose parts fail in part: containers name their own; a batch of a write and a failing write otherwise. */
  failing?(key: string): Failing;
  /** A payer whose payments name it: the identity forged payments try to borrow. */
  victim?(): Promise<Payer>;
  /** A payment for `req` that names `victim` as its payer without `victim` having signed it, and who paid for it. */
  forge?(req: Req, victim: Payer): Promise<{ payment: Payment; attacker?: Payer }>;
  /** The same payment spelled in every way its claim's fields can be spelled (the canonical one first). */
  respell?(payer: Payer, req: Req): Promise<Payment[]>;
  /** A payment whose signature proves nothing, carrying `extensions`. */
  forged?(req: Req, extensions?: Record<string, unknown>): Promise<Payment>;
  /** A correctly signed payment from a payer holding nothing. */
  unfunded?(req: Req): Promise<Payment>;
  /** The way's own worst cases of what a payment costs us (a wallet funded for one, a fee payer's worst transaction). */
  costs?(world: World, key: string): Promise<Bound[]>;
  /** Pays `req` with a payment that stops being valid while the handler of `keys[0]` holds. */
  expiring?(req: Req, keys: string[]): Promise<{ answer: Answer; payer: Payer }>;
  /** Arms a lost reply on the way's next settlement; `done` disarms. */
  loseReply?(): { done(): void };
  /** Cells this way runs its own way (what the class means for it differs in kind: a voucher's claim). */
  cells?: Partial<Record<ClassName, (world: World, key: string) => Promise<void>>>;
  /** Cells that move a chain's clock far ahead: they run after every other cell. */
  last?: ClassName[];
}

export interface Failing {
  req: Req;
  /** Its price in USDC atomic units, as quoted (a pay-as-used way settles the items' prices instead). */
  quote: bigint;
  /** Writes that should stay, and their prices in USDC atomic units. */
  delivered: { key: string; price: bigint }[];
  /** Writes that fail after payment. */
  failed: { key: string; price: bigint }[];
}

/** The default failing call: a batch of a write and a write that fails after payment. */
export const failingBatch = (key: string): Failing => ({
  req: batchOf(item(`${key}-ok`), item(`${key}-bad`, "fails")),
  quote: 50_000n,
  delivered: [{ key: `${key}-ok`, price: 1000n }],
  failed: [{ key: `${key}-bad`, price: 1000n }],
});

/** Every credit code an answer names (an effect's refund, a pending settlement's code, a batch's failed items). */
export function creditCodesOf(answer: Answer): string[] {
  const b = answer.body ?? {};
  return [b.creditCode, b.error?.details?.creditCode, b.data?.credit?.code].filter(
    (c): c is string => typeof c === "string",
  );
}
