import * as v from "valibot";
import { addressField } from "../_shared/onchain-inputs.ts";
import { chainField } from "../_shared/chains.ts";
import { defineBundle, skip } from "./_compose.ts";
import { assetOf, changePercent, figure, Level } from "./_digest.ts";
import { SymbolInput } from "./_market-parts.ts";
import { Evidence, HOLDER_CHAINS, levelOf, scoreOf, tokenEvidence } from "./_token-risk.ts";
import { examples } from "./_examples.ts";

interface HistoryData {
  series?: { points: { price: number }[] }[];
}
interface RepoData {
  archived?: boolean;
  daysSinceLastPush?: number | null;
}

/** A project repository without a push for this long counts as abandoned. */
const STALE_REPO_DAYS = 365;

export default defineBundle({
  name: "crypto-dd",
  price: "$0.05",
  summary:
    "Due-diligence report on a token: price and 30-day history, token facts, security and rug checks, holder concentration, repo health, news, red flags",
  description:
    "Composes crypto-price, crypto-history (30 days), news and, given the token's contract (address and chain), token-info, token-security, rug-check and token-holders; given its GitHub repo, repo-health. " +
    "The summary scores red flags 0-100 (rug-check's raised factors with its points when it answered, else GoPlus risks, a honeypot, a sell tax above 10 % and listed holders owning over half; an archived or year-stale repo adds 10) into a low/medium/high level.",
  input: v.object({
    ...SymbolInput,
    address: v.optional(addressField("The token's contract, for the on-chain checks")),
    chain: chainField(),
    repo: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(200),
        v.regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/, "owner/name"),
        v.description("The project's GitHub repository, owner/name"),
      ),
    ),
  }),
  parts: {
    price: "crypto-price",
    history: "crypto-history",
    tokenInfo: "token-info",
    tokenSecurity: "token-security",
    rugCheck: "rug-check",
    holders: "token-holders",
    repo: "repo-health",
    news: "news",
  },
  plan(input) {
    const { asset, coin } = assetOf(input.symbol, input.coin);
    const noCoin = skip(`no CoinGecko id known for ${asset}: pass coin`);
    const token = { address: input.address, chain: input.chain };
    const noToken = skip("pass the token's address (and chain) for the on-chain checks");
    return {
      price: coin ? { ids: coin } : noCoin,
      history: coin ? { ids: coin, days: 30 } : noCoin,
      tokenInfo: input.address ? token : noToken,
      tokenSecurity: input.address ? token : noToken,
      rugCheck: input.address ? token : noToken,
      holders: !input.address
        ? noToken
        : HOLDER_CHAINS.includes(input.chain)
          ? { ...token, limit: 10 }
          : skip(`no holder index for ${input.chain}`),
      repo: input.repo ? { repo: input.repo } : skip("pass repo (owner/name) for the repository's health"),
      news: { limit: 10 },
    };
  },
  digest: v.object({
    asset: v.string(),
    priceUsd: figure("Spot price in USD"),
    change24hPercent: figure("24 h price change, percent"),
    change30dPercent: figure("Price change over the 30-day history, percent"),
    score: v.pipe(v.number(), v.minValue(0), v.maxValue(100), v.description("Red-flag score, 0 (none found) to 100")),
    level: Level,
    redFlags: Evidence,
  }),
  summarize(data, input) {
    const price = (data.price as { prices?: { priceUsd: number; change24hPercent: number | null }[] } | undefined)
      ?.prices?.[0];
    const points = (data.history as HistoryData | undefined)?.series?.[0]?.points ?? [];
    const repo = data.repo as RepoData | undefined;
    const redFlags = tokenEvidence(data);
    if (repo?.archived) redFlags.push({ part: "repo", finding: "repository archived", points: 10 });
    else if ((repo?.daysSinceLastPush ?? 0) > STALE_REPO_DAYS)
      redFlags.push({ part: "repo", finding: `no push for ${repo!.daysSinceLastPush} days`, points: 10 });
    const score = scoreOf(redFlags);
    return {
      asset: assetOf(input.symbol).asset,
      priceUsd: price?.priceUsd ?? null,
      change24hPercent: price?.change24hPercent ?? null,
      change30dPercent: changePercent(points[0]?.price, points.at(-1)?.price),
      score,
      level: levelOf(score),
      redFlags,
    };
  },
  example: examples["crypto-dd"],
});
