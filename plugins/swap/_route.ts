import { Decimal } from "decimal.js";
import * as v from "valibot";
import type { Address, Hex } from "viem";
import type { Upstream } from "../../core/endpoint.ts";

/** Shapes the adapters read in aggregators' answers: addresses and calldata as viem takes them, amounts as BigInt does. */
export const AddressShape = v.custom<Address>(
  (x) => typeof x === "string" && /^0x[0-9a-fA-F]{40}$/.test(x),
  "not an address",
);
export const HexShape = v.custom<Hex>((x) => typeof x === "string" && /^0x[0-9a-fA-F]*$/.test(x), "not hex data");
/** Base units of a token, a decimal integer. */
export const Units = v.pipe(v.string(), v.regex(/^\d+$/, "not base units"));
/** Wei as decimal or 0x hex (decimalWei reads both). */
export const Wei = v.union([
  v.pipe(v.string(), v.regex(/^(0x[0-9a-fA-F]+|\d+)$/, "not wei")),
  v.pipe(v.number(), v.integer(), v.minValue(0)),
]);
/** A USD figure, string or number, read by usd() (anything else is unknown). */
export const Usd = v.nullish(v.union([v.string(), v.number()]));

/** One swap as the race sees it, after parameter checks. */
export interface RouteRequest {
  fromChain: number;
  toChain: number;
  fromToken: Address;
  toToken: Address;
  /** Base units of fromToken. */
  amount: string;
  depositor: Address;
  recipient: Address;
  /** Integrator fee in basis points; 0 when no recipient is configured. */
  feeBps: number;
  feeRecipient?: Address;
  slippageBps: number;
  /** The integrator name LI.FI credits fees to. */
  lifiIntegrator: string;
  /** The fee wallet registered for that name at portal.li.fi: LI.FI pays there, not to feeRecipient. */
  lifiFeeWallet?: Address;
  /** Across's 2-byte integrator id (0x-hex), sent with every request. */
  acrossIntegratorId?: string;
  /** deBridge's numeric referral code, sent with every order. */
  debridgeReferralCode?: number;
}

export interface EvmTransaction {
  chainId: number;
  to: Address;
  /** Exactly as the aggregator sent it. */
  data: Hex;
  /** Wei, decimal string. */
  value: string;
}

/** An ERC-20 allowance the depositor must grant before sending the transaction. */
export interface Approval {
  token: Address;
  spender: Address;
  amount: string;
  /** The token refuses to change a non-zero allowance (USDT): approve 0 first, then `amount`. */
  resetFirst: boolean;
}

/** A cost paid on top of the input, outside amountOut (a bridge's fixed fee in the transaction value). */
export interface ExtraCost {
  label: string;
  /** Base units of `token`, a token of the origin chain (the zero address is its native coin). */
  amount: string;
  token: Address;
  /** Its USD value when the aggregator gives one. */
  usd?: number;
}

/** What every adapter returns: one aggregator's answer in one shape. */
export interface RouteQuote {
  source: string;
  amountIn: string;
  /** What the recipient gets, after every fee the aggregator deducts (its own and the integrator's). */
  amountOut: string;
  minAmountOut: string;
  estimatedFillTimeSeconds: number;
  transaction: EvmTransaction;
  approval?: Approval;
  /** The aggregator's own fees (not network gas, not the integrator fee). */
  aggregatorFee: { total: string; token: string; totalUsd: number };
  /** The integrator fee as the aggregator reports it; computed from amountIn when it does not. */
  integratorFee?: { amount: string; token: string; amountUsd?: number; recipient?: Address };
  amountInUsd?: number;
  amountOutUsd?: number;
  extraCosts: ExtraCost[];
  /** The aggregator's own USD price of the origin chain's native coin (from its gas estimate), to value others' native fees. */
  nativeUsd?: number;
  notes: string[];
}

export interface Adapter {
  name: string;
  upstream: string;
  serves(req: RouteRequest): boolean;
  quote(api: Upstream, req: RouteRequest): Promise<RouteQuote>;
}

export const sameChain = (req: RouteRequest) => req.fromChain === req.toChain;

/** Basis points as a fraction string: 10 -> "0.001" (LI.FI and Across units). */
export const bpsAsFraction = (bps: number) => new Decimal(bps).div(10_000).toString();
/** Basis points as a percent string: 10 -> "0.1" (deBridge units). */
export const bpsAsPercent = (bps: number) => new Decimal(bps).div(100).toString();

/** Wei as a decimal string, whether the aggregator sent hex ("0x2386f26fc10000") or decimal. */
export const decimalWei = (value: string | number | undefined) => BigInt(value ?? 0).toString();

export const usd = (value: string | number | undefined | null): number | undefined => {
  if (value === undefined || value === null || value === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

export const sumUsd = (values: (number | undefined)[]) => values.reduce<number>((a, b) => a + (b ?? 0), 0);

/** amount * bps / 10000, rounded down: what a fee of `bps` takes from `amount` base units. */
export const feeOf = (amount: string, bps: number) => ((BigInt(amount) * BigInt(bps)) / 10_000n).toString();
