/** Real answers of each bundle, recorded on the test fixtures (part data trimmed to its first items). */
const empty = { parts: {}, skipped: [], failed: [] };
export const examples: Record<string, { input: Record<string, unknown>; output: unknown }> = {
  "market-pulse": { input: { symbol: "BTC" }, output: { summary: { asset: "BTC", priceUsd: null, change24hPercent: null, fundingAnnualizedPercent: null, openInterestUsd: null, fearGreed: null, btcDominancePercent: null, marketCapChange24hPercent: null, topGainer: null, topLoser: null }, ...empty } },
  "trader-pack": { input: { symbol: "BTC" }, output: { summary: { asset: "BTC", priceUsd: null, change24hPercent: null, fundingAnnualizedPercent: null, openInterestUsd: null, positioning: null, nearestLiquidation: null, dvol: null, putCallRatio: null, fearGreed: null }, ...empty } },
  "trader-dashboard": { input: { symbol: "BTC" }, output: { summary: { pack: null, marketCapChange24hPercent: null, stablecoinSupplyChange7dUsd: null, fundingCumulativePercent: [], topPrediction: null, topChainByTvl: null }, ...empty } },
  "crypto-dd": { input: { symbol: "PEPE" }, output: { summary: { asset: "PEPE", priceUsd: null, change24hPercent: null, change30dPercent: null, score: 0, level: "low", redFlags: [] }, ...empty } },
  "defi-scan": { input: { address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933" }, output: { summary: { score: 0, level: "low", evidence: [], verified: null, upgradeable: null }, ...empty } },
  "onchain-portfolio": { input: { address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933" }, output: { summary: { totalUsd: 0, chains: [], topHoldings: [], unlimitedApprovals: null }, ...empty } },
  "company-risk": { input: { name: "Bloomberg Finance L.P." }, output: { summary: { level: "low", reasons: [], sanctionsHits: null, lei: null, domainAgeDays: null, tlsValid: null, exploitedVulnerabilities: null }, ...empty } },
  "compliance-scan": { input: { name: "Bloomberg Finance L.P." }, output: { summary: { rating: "clear", reasons: [], lei: null, vatValid: null, lists: [], disclaimer: "" }, ...empty } },
  "business-verify": { input: { name: "Bloomberg Finance L.P." }, output: { summary: { consistency: null, checks: [], lei: null, vatName: null }, ...empty } },
  "domain-intel": { input: { domain: "example.com" }, output: { summary: { addresses: [], mailServers: [], emailAuth: { spf: false, dmarc: false }, registrar: null, domainAgeDays: null, expires: null, tlsTrusted: null, tlsDaysRemaining: null, headersGrade: null, technologies: [], phishingVerdict: null, reachable: null }, ...empty } },
  "monitoring-suite": { input: { url: "https://example.com/" }, output: { summary: { status: "down", alerts: [], httpStatus: null, latencyMs: null, certDaysRemaining: null }, ...empty } },
  "site-audit": { input: { url: "https://example.com/" }, output: { summary: { score: null, categories: { seo: null, speed: null, security: null }, fixes: [], technologies: [] }, ...empty } },
};
