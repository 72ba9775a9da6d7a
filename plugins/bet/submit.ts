import * as v from "valibot";
import { formatUnits, getAddress, type Hex } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
import { betLimits, checkPayout, checkStake, conditionState, liveOutcome } from "./_azuro.ts";
import { attention, betSettings } from "./_environments.ts";
import { hasAtMostTwoDecimals, oddsToRaw } from "./_odds.ts";
import { forwardOrder } from "./_relayer.ts";
import { address, environment, rawFields } from "./_schemas.ts";
import { quoteRaw } from "./_quote-example.ts";
import { checkSigner } from "./_signer.ts";
import { betTypedData } from "./_typed-data.ts";

export default defineEndpoint({
  name: "bet/submit",
  method: "GET",
  price: "$0.05",
  summary: "Forward a bettor-signed Azuro bet order to the protocol's relayer",
  description:
    "Rebuilds the quote's typed data from the raw values, recovers the signer and refuses anything but `bettor`, checks the market " +
    "is still live, the odds still at or above minOdds and the stake within the protocol's limits, then posts the order to Azuro's relayer. " +
    "Every refusal is a 4xx and is not charged. Track the order at trackWith.",
  input: v.object({
    bettor: address("Wallet that signed the order; it will own the bet NFT"),
    signature: v.pipe(
      v.string(),
      v.maxLength(4098),
      v.regex(
        /^0x(?:[0-9a-fA-F]{2}){65,}$/,
        "must be 0x and whole bytes, at least 65 (eth_signTypedData_v4 output, or a contract wallet's signature)",
      ),
      v.description(
        "eth_signTypedData_v4 signature of the quote's typedData; a contract wallet's (ERC-1271) is checked on its chain",
      ),
    ),
    ...rawFields,
    relayerFeeAmount: v.pipe(
      v.string(),
      v.maxLength(40),
      v.regex(/^\d+$/, "must be a non-negative integer in decimal digits"),
      v.description("Raw relayer fee from the quote, paid by the bettor; part of what was signed, so required"),
    ),
    environment,
  }),
  output: v.object({
    accepted: v.boolean(),
    betId: v.pipe(v.string(), v.description("Azuro order id")),
    state: v.pipe(v.literal("Accepted"), v.description("Accepted by the relayer API")),
    relayerState: v.pipe(
      v.string(),
      v.description("The order's state at Azuro right now: Created, then Placed, Sent, Accepted or Rejected, Settled"),
    ),
    environment: v.string(),
    bettor: v.string(),
    trackWith: v.pipe(v.string(), v.description("GET this URL for the order's progress")),
  }),
  example: {
    input: {
      bettor: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      signature:
        "0x486604318215eb4f316398d606bbf4b7633f3461460c8c86ae6fc3b2ef1136d5087c8046a0851f182e7c5394c89d5993e4900c10697f8cb7b6e055f99ac374ef1c",
      ...quoteRaw,
    },
    output: {
      accepted: true,
      betId: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8_1778500000000123",
      state: "Accepted",
      relayerState: "Created",
      environment: "PolygonUSDT",
      bettor: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      trackWith:
        "https://api.onchainfeed.org/api/v1/public/bet/orders/0x70997970c51812dc3a010c7d01b50e0d17dc79c8_1778500000000123",
    },
  },
  upstreams: ["azuro-api", "azuro-relayer", "polygon-rpc", "gnosis-rpc"],
  settings: betSettings,
  async handler({ input, upstream, now, settings }) {
    const env = settings.environments[input.environment];
    const bettor = getAddress(input.bettor);
    if (input.expiresAt <= Math.floor(now().getTime() / 1000)) {
      throw new ServiceError(409, "quote_expired", "The signed order has expired; ask /v1/bet/quote for a new one", {
        expiresAt: input.expiresAt,
      });
    }
    // The signature covers numbers, not their spelling: the relayer gets them without leading zeros.
    const raw = { ...input, ...canonicalDigits(input) };
    const typed = betTypedData({ chainId: env.chainId, core: env.core, affiliate: settings.affiliate, attention }, raw);
    await checkSigner(typed, input.signature as Hex, bettor, () => upstream(env.rpc));
    const amountRaw = BigInt(raw.amountRaw);
    if (amountRaw === 0n || !hasAtMostTwoDecimals(amountRaw, env.betToken.decimals)) {
      throw new ServiceError(422, "stake_out_of_limits", "The stake must be positive with at most 2 decimals", {
        amountRaw: raw.amountRaw,
      });
    }

    const api = upstream("azuro-api");
    const condition = await conditionState(api, env.name, raw.conditionId);
    const outcome = liveOutcome(condition, raw.outcomeId);
    if (oddsToRaw(outcome.odds) < BigInt(raw.minOdds)) {
      throw new ServiceError(
        409,
        "odds_moved",
        `The odds are now ${outcome.odds}, below the order's minOdds; ask for a new quote`,
        { odds: Number(outcome.odds) },
      );
    }
    const amount = formatUnits(amountRaw, env.betToken.decimals);
    const limits = await betLimits(api, env.name, raw, bettor);
    checkStake(Number(amount), limits);
    checkPayout(amount, outcome.odds, limits);

    const relayer = upstream("azuro-relayer");
    const order = await forwardOrder(relayer, env.name, bettor, typed, input.signature);
    return {
      accepted: true,
      betId: order.id,
      state: "Accepted" as const,
      relayerState: order.state,
      environment: env.name,
      bettor,
      trackWith: `${relayer.url.replace(/\/+$/, "")}/bet/orders/${encodeURIComponent(order.id)}`,
    };
  },
});

function canonicalDigits(input: Record<(typeof digitFields)[number], string>) {
  return Object.fromEntries(digitFields.map((field) => [field, BigInt(input[field]).toString()])) as Record<
    (typeof digitFields)[number],
    string
  >;
}
const digitFields = ["conditionId", "outcomeId", "amountRaw", "minOdds", "nonce", "relayerFeeAmount"] as const;
