import * as v from "valibot";

/** One reason in an explained score: what was checked, where, what was seen, and what it adds. */
export interface Factor {
  name: string;
  /** Points this factor adds when it fires (0-100). */
  weight: number;
  /** What was observed (a flag, a count, a list entry), as text. */
  value: string;
  triggered: boolean;
  /** weight when triggered, else 0. */
  points: number;
  source: string;
  explanation: string;
}

export const FactorSchema = v.object({
  name: v.string(),
  weight: v.pipe(v.number(), v.description("Points the factor adds when it fires")),
  value: v.pipe(v.string(), v.description("What was observed")),
  triggered: v.boolean(),
  points: v.pipe(v.number(), v.description("weight if triggered, else 0")),
  source: v.pipe(v.string(), v.description("Where the observation comes from")),
  explanation: v.string(),
});

export const bands = ["low", "medium", "high", "severe"] as const;

export const ScoreSchema = {
  score: v.pipe(v.number(), v.description("0-100: the sum of the triggered factors' points, capped at 100")),
  band: v.pipe(v.picklist(bands), v.description("low < 20 <= medium < 50 <= high < 80 <= severe")),
  factors: v.array(FactorSchema),
};

export function factor(
  name: string,
  weight: number,
  triggered: boolean,
  value: string,
  source: string,
  explanation: string,
): Factor {
  return { name, weight, value, triggered, points: triggered ? weight : 0, source, explanation };
}

export function scoreOf(factors: Factor[]) {
  const score = Math.min(
    100,
    factors.reduce((sum, f) => sum + f.points, 0),
  );
  const band = score >= 80 ? "severe" : score >= 50 ? "high" : score >= 20 ? "medium" : "low";
  return { score, band: band as (typeof bands)[number], factors };
}
