import * as v from "valibot";
import type { Level } from "./_digest.ts";

/** Chains some token parts cover (others are skipped for a token elsewhere). */
export const HONEYPOT_CHAINS = ["ethereum", "bsc", "base"];
export const HOLDER_CHAINS = ["ethereum", "base", "optimism", "arbitrum", "polygon", "gnosis", "base-sepolia"];

export const Evidence = v.pipe(
  v.array(v.object({ part: v.string(), finding: v.string(), points: v.number() })),
  v.description("Each finding that raised the score, with the part that reported it and its points"),
);
export type Evidence = { part: string; finding: string; points: number }[];

interface TokenSecurity {
  risks?: string[];
}
interface RugCheck {
  factors?: { label: string; raised: boolean | null; points: number }[];
}
interface Honeypot {
  isHoneypot?: boolean | null;
  honeypotReason?: string | null;
  sellTaxPercent?: number | null;
}
interface Holders {
  topShare?: number | null;
}

/** Points per finding: a honeypot alone puts a token in the high band. */
export const POINTS = {
  honeypot: 60,
  tokenRisk: 8,
  highSellTax: 15,
  concentration: 15,
  unverified: 15,
  upgradeable: 10,
  maliciousDapp: 60,
};
/** Listed top holders owning more than this share of the supply. */
export const CONCENTRATION_SHARE = 0.5;

/**
 * The token findings: rug-check's raised factors with its own points when it answered (it already weighs
 * GoPlus, the honeypot simulation and holder concentration), else the same checks from the parts that did.
 */
export function tokenEvidence(data: {
  tokenSecurity?: unknown;
  rugCheck?: unknown;
  honeypot?: unknown;
  holders?: unknown;
}): Evidence {
  const rug = data.rugCheck as RugCheck | undefined;
  if (rug?.factors)
    return rug.factors.filter((f) => f.raised).map((f) => ({ part: "rugCheck", finding: f.label, points: f.points }));
  const evidence: Evidence = [];
  for (const risk of (data.tokenSecurity as TokenSecurity | undefined)?.risks ?? [])
    evidence.push({ part: "tokenSecurity", finding: risk, points: POINTS.tokenRisk });
  const honeypot = data.honeypot as Honeypot | undefined;
  if (honeypot?.isHoneypot)
    evidence.push({
      part: "honeypot",
      finding: `honeypot: ${honeypot.honeypotReason ?? "cannot sell"}`,
      points: POINTS.honeypot,
    });
  if ((honeypot?.sellTaxPercent ?? 0) > 10)
    evidence.push({ part: "honeypot", finding: `sell tax ${honeypot!.sellTaxPercent} %`, points: POINTS.highSellTax });
  const top = (data.holders as Holders | undefined)?.topShare;
  if (top != null && top > CONCENTRATION_SHARE)
    evidence.push({
      part: "holders",
      finding: `listed top holders own ${Math.round(top * 100)} % of supply`,
      points: POINTS.concentration,
    });
  return evidence;
}

export const scoreOf = (evidence: Evidence) =>
  Math.min(
    100,
    evidence.reduce((sum, e) => sum + e.points, 0),
  );
export const levelOf = (score: number): Level => (score >= 50 ? "high" : score >= 20 ? "medium" : "low");
