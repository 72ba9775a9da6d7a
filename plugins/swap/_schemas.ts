import * as v from "valibot";
import { badRequest } from "../../core/runtime/errors.ts";
import { chainIdList, chainIds } from "./_chains.ts";

export const AddressSchema = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address (40 hex digits)"));
export const BaseUnits = v.pipe(
  v.string(),
  v.maxLength(78),
  v.regex(/^[1-9][0-9]*$/, "must be a positive integer in base units"),
);
const Chain = (what: string) => v.pipe(v.picklist(chainIds), v.description(`${what} chain id: ${chainIdList}`));

/** The spec's /v1/swap parameters (and /v1/swap/compare, which takes the same). */
export const swapInputEntries = {
  fromChain: Chain("Origin"),
  toChain: Chain("Destination (equal to fromChain for a same-chain swap)"),
  fromToken: v.pipe(
    AddressSchema,
    v.description("Token address on the origin chain; the zero address is the native coin"),
  ),
  toToken: v.pipe(
    AddressSchema,
    v.description("Token address on the destination chain; the zero address is the native coin"),
  ),
  amount: v.pipe(BaseUnits, v.description("Amount of fromToken in base units (an integer string)")),
  depositor: v.optional(
    v.pipe(
      AddressSchema,
      v.description("Address that signs and sends the transaction (required unless recipient is given)"),
    ),
  ),
  recipient: v.optional(v.pipe(AddressSchema, v.description("Address that receives toToken; defaults to depositor"))),
  feeBps: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(50),
      v.description("Integrator fee in basis points, 0-50"),
    ),
    10,
  ),
  slippageBps: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(1000),
      v.description("Slippage tolerance in basis points, 1-1000"),
    ),
    50,
  ),
};
export const SwapInput = v.object(swapInputEntries);

/** depositor or recipient: the spec needs one of them, which a declarative schema cannot say. */
export function parties(input: { depositor?: string; recipient?: string }) {
  const depositor = input.depositor ?? input.recipient;
  if (!depositor)
    throw badRequest("Invalid input for swap", {
      issues: [{ field: "depositor", message: "depositor (or recipient) is required" }],
    });
  return { depositor: depositor as `0x${string}`, recipient: (input.recipient ?? depositor) as `0x${string}` };
}

const Hex = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]*$/));
const AggregatorFee = v.object({
  total: v.pipe(v.string(), v.description("Base units of `token`")),
  token: v.string(),
  totalUsd: v.number(),
});
export const Transaction = v.object({
  chainId: v.number(),
  to: AddressSchema,
  data: v.pipe(Hex, v.description("Calldata exactly as the aggregator built it")),
  value: v.pipe(v.string(), v.description("Wei, decimal")),
});
export const Approval = v.nullable(
  v.object({
    token: AddressSchema,
    spender: AddressSchema,
    amount: v.string(),
    resetFirst: v.pipe(
      v.boolean(),
      v.description("Approve 0 first, then amount: the token refuses to change a non-zero allowance"),
    ),
  }),
);

export const RouteOutput = {
  source: v.pipe(
    v.string(),
    v.description("Lowercase id of the aggregator: relay, lifi, across, debridge or kyberswap"),
  ),
  quote: v.object({
    amountIn: v.string(),
    amountOut: v.pipe(
      v.string(),
      v.description("Base units the recipient gets, net of the aggregator's and the integrator fee"),
    ),
    minAmountOut: v.string(),
    netAmountOut: v.pipe(
      v.nullable(v.string()),
      v.description(
        "amountOut less fees paid on top of the input, in output units: what the ranking compares; null when a fee on top cannot be valued",
      ),
    ),
    estimatedFillTimeSeconds: v.number(),
    quoteExpiresAt: v.string(),
  }),
  fees: v.objectWithRest(
    {
      integrator: v.object({
        included: v.boolean(),
        feeBps: v.number(),
        amount: v.string(),
        amountUsd: v.number(),
        token: v.string(),
        recipient: AddressSchema,
      }),
      breakdown: v.array(v.string()),
    },
    AggregatorFee,
  ),
  transaction: Transaction,
  approval: v.pipe(Approval, v.description("An ERC-20 allowance to grant first, or null")),
};

export const Skipped = v.array(
  v.object({ source: v.string(), reason: v.picklist(["deadline", "error"]), message: v.string() }),
);

export const Alternatives = v.array(
  v.object({ source: v.string(), quote: v.object({ amountOut: v.string(), estimatedFillTimeSeconds: v.number() }) }),
);
export const Comparison = v.array(
  v.object({
    rank: v.number(),
    source: v.string(),
    amountOut: v.string(),
    netAmountOut: v.nullable(v.string()),
    estimateSec: v.number(),
    unvaluedCosts: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description("Costs on top of the input that no price could value: the route ranks after fully priced ones"),
      ),
    ),
    winner: v.optional(v.literal(true)),
  }),
);
