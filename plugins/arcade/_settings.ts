import { defineSettings } from "../../core/endpoint.ts";
import { integerSetting } from "../../core/runtime/settings.ts";
import { fundingVenues, type FundingVenue } from "./_referees.ts";

function fundingVenueSetting(value: string | undefined): FundingVenue {
  if (!value) return "binance-futures";
  if (!(fundingVenues as readonly string[]).includes(value))
    throw new Error(`ARCADE_FUNDING_VENUE must be one of ${fundingVenues.join(", ")}`);
  return value as FundingVenue;
}

/** The arcade's settings. */
export const arcadeSettings = defineSettings((env) => {
  const promoUsd = (env.ARCADE_PROMO_USD || "1.00,0.50,0.25").split(",").map((x) => x.trim());
  if (promoUsd.length !== 3 || !promoUsd.every((x) => /^\d+(\.\d{1,6})?$/.test(x)))
    throw new Error("ARCADE_PROMO_USD must be three USD amounts, e.g. 1.00,0.50,0.25");
  return {
    /** Plays per visitor (IP address) and hour on the free web route; ARCADE_WEB_PLAYS_PER_HOUR, default 120. */
    webPlaysPerHour: integerSetting("ARCADE_WEB_PLAYS_PER_HOUR", env, 120, 1, 100_000),
    /** API credit per place of the last finished week, in USD: ARCADE_PROMO_USD, default "1.00,0.50,0.25". */
    promoUsd,
    /**
     * The proof of work a free play costs (ALTCHA, PBKDF2/SHA-256 at 1,000 iterations): the solver tries about
     * half to all of this many counters; ARCADE_POW_WORK, default 3000 (about a second in a browser).
     */
    powWork: integerSetting("ARCADE_POW_WORK", env, 3_000, 2, 1_000_000),
    /** The venue whose funding prints judge the funding game: ARCADE_FUNDING_VENUE, binance-futures (default) or hyperliquid. */
    fundingVenue: fundingVenueSetting(env.ARCADE_FUNDING_VENUE),
  };
});
