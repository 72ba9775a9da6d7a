import { randomInt } from "node:crypto";
import * as v from "valibot";
import { formatUnits, parseUnits } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { betLimits, checkPayout, checkStake, conditionState, liveOutcome, relayerFee } from "./_azuro.ts";
import { attention, betSettings, disclaimer } from "./_environments.ts";
import { outcomeTitle, marketTitle } from "./_markets.ts";
import { minOddsRaw, oddsToRaw, rawToOdds } from "./_odds.ts";
import { address, conditionId, environment, outcomeId, RawBetOutput, TypedDataOutput } from "./_schemas.ts";
import { betTypedData } from "./_typed-data.ts";
import { quoteExample } from "./_quote-example.ts";

export default defineEndpoint({
  name: "bet/quote",
  method: "GET",
  price: "$0.03",
  summary: "A signable Azuro bet order: current odds, protocol limits, relayer fee and EIP-712 typed data",
  description:
    "Checks the market is live, reads Azuro's min/max bet, max payout and relayer fee, and builds the ClientBetData typed data " +
    "(minOdds at 5% slippage, a nonce, an expiry, our affiliate). Sign typedData, then send the signature and the raw values to /v1/bet/submit.",
  input: v.object({
    conditionId,
    outcomeId,
    amount: v.pipe(
      v.number(),
      v.minValue(0.01),
      v.maxValue(1_000_000_000),
      v.description("Stake in human token units, at most 2 decimals (e.g. 10.5 USDT)"),
    ),
    environment,
  }),
  output: v.object({
    environment: v.string(),
    chain: v.pipe(v.number(), v.integer()),
    betToken: v.object({ symbol: v.string(), address: v.string(), decimals: v.pipe(v.number(), v.integer()) }),
    market: v.object({ conditionId: v.string(), title: v.string() }),
    outcome: v.object({
      outcomeId: v.string(),
      title: v.string(),
      odds: v.pipe(v.number(), v.description("Current decimal odds")),
    }),
    amount: v.pipe(v.number(), v.description("Stake in human token units")),
    potentialPayout: v.pipe(v.number(), v.description("amount x odds, in human token units")),
    minOdds: v.pipe(v.number(), v.description("The lowest decimal odds the signed order accepts")),
    minBet: v.pipe(v.number(), v.description("Protocol minimum stake (0: no floor)")),
    maxBet: v.number(),
    maxPayout: v.number(),
    isFeeSponsored: v.literal(false),
    relayerFeePaidBy: v.literal("bettor"),
    relayerFee: v.pipe(v.number(), v.description("Relayer fee in human token units, paid by the bettor")),
    affiliate: address("The service's affiliate wallet, embedded in the signed client data"),
    approval: v.object({
      token: v.string(),
      spender: v.string(),
      amountRaw: v.pipe(v.string(), v.description("Stake plus relayer fee, raw units")),
    }),
    typedData: TypedDataOutput,
    raw: RawBetOutput,
    disclaimer: v.array(v.string()),
  }),
  example: quoteExample,
  upstreams: ["azuro-api"],
  settings: betSettings,
  async handler({ input, upstream, now, settings }) {
    const env = settings.environments[input.environment];
    const amountText = String(input.amount);
    if (!/^\d+(\.\d{1,2})?$/.test(amountText))
      throw fieldError("amount", "must have at most 2 decimals (Azuro refuses finer stakes)");
    const api = upstream("azuro-api");
    const condition = await conditionState(api, env.name, input.conditionId);
    const outcome = liveOutcome(condition, input.outcomeId);
    const [limits, feeRaw] = await Promise.all([betLimits(api, env.name, input), relayerFee(api, env.name)]);
    checkStake(input.amount, limits);
    const potentialPayout = checkPayout(amountText, outcome.odds, limits);

    const amountRaw = parseUnits(amountText, env.betToken.decimals);
    const minOdds = minOddsRaw(oddsToRaw(outcome.odds));
    const issuedMs = now().getTime();
    const raw = {
      conditionId: input.conditionId,
      outcomeId: input.outcomeId,
      amountRaw: amountRaw.toString(),
      minOdds: minOdds.toString(),
      nonce: (BigInt(issuedMs) * 1000n + BigInt(randomInt(1000))).toString(),
      expiresAt: Math.floor(issuedMs / 1000) + settings.quoteLifetimeSeconds,
      relayerFeeAmount: feeRaw,
    };
    const affiliate = settings.affiliate;
    return {
      environment: env.name,
      chain: env.chainId,
      betToken: env.betToken,
      market: { conditionId: condition.conditionId, title: marketTitle(condition) },
      outcome: { outcomeId: outcome.outcomeId, title: outcomeTitle(outcome), odds: Number(outcome.odds) },
      amount: input.amount,
      potentialPayout,
      minOdds: rawToOdds(minOdds),
      ...limits,
      isFeeSponsored: false as const,
      relayerFeePaidBy: "bettor" as const,
      relayerFee: Number(formatUnits(BigInt(feeRaw), env.betToken.decimals)),
      affiliate,
      approval: {
        token: env.betToken.address,
        spender: env.relayer,
        amountRaw: (amountRaw + BigInt(feeRaw)).toString(),
      },
      typedData: betTypedData({ chainId: env.chainId, core: env.core, affiliate, attention }, raw),
      raw,
      disclaimer,
    };
  },
});
