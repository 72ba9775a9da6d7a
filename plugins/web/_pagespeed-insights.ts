import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

/** What the code reads of a PageSpeed Insights v5 answer: the Lighthouse result's category scores (0-1) and audits. */
const PsiAnswer = v.object({
  lighthouseResult: v.object({
    categories: v.record(v.string(), v.object({ score: v.nullish(v.number()) })),
    audits: v.record(v.string(), v.object({ numericValue: v.optional(v.number()) })),
  }),
});

const categories = ["PERFORMANCE", "ACCESSIBILITY", "BEST_PRACTICES", "SEO"];

/** Lighthouse scores (0-100) and lab metrics from Google PageSpeed Insights v5. */
export async function runLighthouse(psi: Upstream, url: string, strategy: "mobile" | "desktop") {
  const path = `/runPagespeed?${categories.map((c) => `category=${c}`).join("&")}`;
  const result = (await psi.json(path, PsiAnswer, { query: { url, strategy } })).lighthouseResult;
  const score = (name: string) => {
    const value = result.categories[name]?.score;
    return typeof value === "number" ? Math.round(value * 100) : null;
  };
  const metric = (audit: string, digits = 0) => {
    const value = result.audits[audit]?.numericValue;
    return typeof value === "number" ? Number(value.toFixed(digits)) : null;
  };
  return {
    strategy,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    metrics: {
      fcpMs: metric("first-contentful-paint"),
      lcpMs: metric("largest-contentful-paint"),
      tbtMs: metric("total-blocking-time"),
      cls: metric("cumulative-layout-shift", 3),
      speedIndexMs: metric("speed-index"),
    },
  };
}
