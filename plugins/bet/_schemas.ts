import * as v from "valibot";
import { environmentNames } from "./_environments.ts";

const digits = (max: number, description: string) =>
  v.pipe(
    v.string(),
    v.maxLength(max),
    v.regex(/^\d+$/, "must be a non-negative integer in decimal digits"),
    v.description(description),
  );

export const address = (description: string) =>
  v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address"), v.description(description));

export const conditionId = digits(80, "Azuro condition (market) id from /v1/bet/odds");
export const outcomeId = digits(20, "Azuro outcome id from /v1/bet/odds");
export const environment = v.optional(
  v.pipe(v.picklist(environmentNames), v.description("PolygonUSDT (USDT on chain 137, default) or GnosisXDAI")),
  "PolygonUSDT",
);

/** The raw values of a quote, as `/v1/bet/submit` takes them back. */
export const rawFields = {
  conditionId,
  outcomeId,
  amountRaw: digits(40, "Stake in raw bet-token units, from the quote"),
  minOdds: digits(20, "Minimum odds, 12-decimal fixed point, from the quote"),
  nonce: digits(78, "Order nonce from the quote"),
  expiresAt: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.maxValue(2 ** 40),
    v.description("Unix seconds after which the signed order is void, from the quote"),
  ),
};

export const RawBetOutput = v.object({
  conditionId: v.string(),
  outcomeId: v.string(),
  amountRaw: v.string(),
  minOdds: v.string(),
  nonce: v.string(),
  expiresAt: v.pipe(v.number(), v.integer()),
  relayerFeeAmount: v.string(),
});

const Field = v.object({ name: v.string(), type: v.string() });

export const TypedDataOutput = v.object({
  types: v.object({ ClientBetData: v.array(Field), ClientData: v.array(Field), SubBet: v.array(Field) }),
  primaryType: v.literal("ClientBetData"),
  domain: v.object({
    name: v.string(),
    version: v.string(),
    chainId: v.pipe(v.number(), v.integer()),
    verifyingContract: v.string(),
  }),
  message: v.object({
    clientData: v.object({
      attention: v.string(),
      affiliate: v.string(),
      core: v.string(),
      expiresAt: v.pipe(v.number(), v.integer()),
      chainId: v.pipe(v.number(), v.integer()),
      relayerFeeAmount: v.string(),
      isFeeSponsored: v.boolean(),
      isBetSponsored: v.boolean(),
      isSponsoredBetReturnable: v.boolean(),
    }),
    bets: v.array(
      v.object({
        conditionId: v.string(),
        outcomeId: v.string(),
        minOdds: v.string(),
        amount: v.string(),
        nonce: v.string(),
      }),
    ),
  }),
});
