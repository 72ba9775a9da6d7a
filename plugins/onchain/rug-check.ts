import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainField } from "../_shared/chains.ts";
import { honeypotChains, honeypotReport, type HoneypotChain } from "./_honeypot.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { readTokenSecurity } from "./_token-security.ts";

type Security = Awaited<ReturnType<typeof readTokenSecurity>>;
type Honeypot = Awaited<ReturnType<typeof honeypotReport>> | null;
interface Factor {
  id: string;
  label: string;
  raised: boolean | null;
  points: number;
  source: string;
  detail: string;
}

const GOPLUS = "goplus token_security";
const HONEYPOT = "honeypot.is simulation";
const pct = (fraction: number | null) => (fraction === null ? "unknown" : `${Math.round(fraction * 10_000) / 100}%`);

/** Each factor with the points it adds when raised (null: the source does not know, no points). Published in the description. */
function factors(security: Security, honeypot: Honeypot): Factor[] {
  const c = security.checks;
  const looseHolders = security.topHolders.filter(
    (h) => !h.isLocked && !h.isContract && !/dead|null|burn/i.test(h.tag ?? ""),
  );
  const concentration = looseHolders.slice(0, 10).reduce((sum, h) => sum + h.share, 0);
  const liquidity = security.dexes.reduce((sum, d) => sum + (d.liquidityUsd ?? 0), 0);
  const sellTax = honeypot?.sellTaxPercent ?? (security.sellTax === null ? null : security.sellTax * 100);
  const flagFactor = (id: keyof Security["checks"], label: string, points: number): Factor => ({
    id,
    label,
    raised: c[id],
    points,
    source: GOPLUS,
    detail: `GoPlus ${id}: ${c[id] ?? "unknown"}`,
  });
  return [
    honeypot?.simulated
      ? {
          id: "honeypot",
          label: "Cannot be sold (simulated)",
          raised: honeypot.isHoneypot,
          points: 40,
          source: HONEYPOT,
          detail: honeypot.honeypotReason ?? `simulated sell ${honeypot.isHoneypot ? "failed" : "succeeded"}`,
        }
      : flagFactor("honeypot", "Honeypot", 40),
    flagFactor("cannotSellAll", "Holders cannot sell everything", 20),
    {
      id: "sellTax",
      label: "Sell tax above 10%",
      raised: sellTax === null ? null : sellTax > 10,
      points: 15,
      source: honeypot?.simulated ? HONEYPOT : GOPLUS,
      detail: `sell tax ${sellTax === null ? "unknown" : `${Math.round(sellTax * 100) / 100}%`}`,
    },
    flagFactor("ownerCanChangeBalance", "Owner can change balances", 20),
    flagFactor("mintable", "Supply can be minted", 10),
    flagFactor("hiddenOwner", "Hidden owner", 10),
    flagFactor("canTakeBackOwnership", "Ownership can be reclaimed", 10),
    flagFactor("selfDestruct", "Contract can self-destruct", 10),
    flagFactor("transferPausable", "Transfers can be paused", 10),
    flagFactor("taxModifiable", "Taxes can be changed", 10),
    flagFactor("blacklist", "Owner can blacklist holders", 5),
    flagFactor("proxy", "Upgradeable (proxy)", 5),
    {
      id: "closedSource",
      label: "Source not verified",
      raised: c.openSource === null ? null : !c.openSource,
      points: 15,
      source: GOPLUS,
      detail: `GoPlus openSource: ${c.openSource ?? "unknown"}`,
    },
    {
      id: "holderConcentration",
      label: "Top 10 wallets hold over half",
      raised: security.topHolders.length ? concentration > 0.5 : null,
      points: 15,
      source: GOPLUS,
      detail: `top unlocked wallets hold ${pct(concentration)} (contracts, locks and burn addresses excluded)`,
    },
    {
      id: "thinLiquidity",
      label: "DEX liquidity under $10,000",
      raised: security.dexes.length ? liquidity < 10_000 : c.inDex === false ? true : null,
      points: 15,
      source: GOPLUS,
      detail: security.dexes.length
        ? `$${Math.round(liquidity)} across ${security.dexes.length} pools`
        : "no DEX pool listed",
    },
  ];
}

const level = (score: number): "low" | "medium" | "high" => (score >= 50 ? "high" : score >= 20 ? "medium" : "low");

export default defineEndpoint({
  name: "rug-check",
  method: "GET",
  price: "$0.02",
  summary:
    "Rug-pull risk score of a token, explained: honeypot, taxes, owner powers, holder concentration, liquidity, each with its source",
  description:
    "A score from 0 to 100 (capped), the sum of the points of every raised factor: honeypot 40 (honeypot.is's simulated buy and sell on ethereum, bsc and base, else GoPlus), cannot sell all 20, owner can change balances 20, sell tax over 10% 15, unverified source 15, top 10 unlocked wallets over 50% 15, DEX liquidity under $10,000 15, mintable, hidden owner, reclaimable ownership, self-destruct, pausable transfers, changeable taxes 10 each, blacklist and proxy 5 each. Level: low under 20, medium under 50, high from 50. A factor its source does not know is `raised: null` and adds nothing, so `unknownFactors` says how much is unseen. A heuristic, not an audit.",
  input: v.object({ address: addressField("Token contract address"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    name: v.nullable(v.string()),
    symbol: v.nullable(v.string()),
    score: v.pipe(v.number(), v.description("0 (no raised factor) to 100")),
    level: v.picklist(["low", "medium", "high"]),
    factors: v.array(
      v.object({
        id: v.string(),
        label: v.string(),
        raised: v.nullable(v.boolean()),
        points: v.number(),
        source: v.string(),
        detail: v.string(),
      }),
    ),
    raised: v.pipe(v.array(v.string()), v.description("Ids of the raised factors")),
    unknownFactors: v.array(v.string()),
    sources: v.array(v.string()),
  }),
  example: {
    input: { address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933",
      name: "Pepe",
      symbol: "PEPE",
      score: 5,
      level: "low",
      factors: [
        {
          id: "blacklist",
          label: "Owner can blacklist holders",
          raised: true,
          points: 5,
          source: GOPLUS,
          detail: "GoPlus blacklist: true",
        },
      ],
      raised: ["blacklist"],
      unknownFactors: [],
      sources: [
        "https://gopluslabs.io/token-security/1/0x6982508145454Ce325dDbE47a25d4ec3d2311933",
        "https://honeypot.is/ethereum?address=0x6982508145454Ce325dDbE47a25d4ec3d2311933",
      ],
    },
  },
  cacheTtl: 600,
  upstreams: ["goplus", "honeypot-is"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const simulated = input.chain in honeypotChains;
    const [security, honeypot] = await Promise.all([
      readTokenSecurity(upstream("goplus"), input.chain, address),
      // The simulation is a second opinion: without it the GoPlus flags still answer.
      simulated
        ? honeypotReport(upstream("honeypot-is"), input.chain as HoneypotChain, address).catch(() => null)
        : Promise.resolve(null),
    ]);
    const all = factors(security, honeypot);
    const raised = all.filter((f) => f.raised === true);
    const score = Math.min(
      100,
      raised.reduce((sum, f) => sum + f.points, 0),
    );
    return {
      chain: input.chain,
      address,
      name: security.name,
      symbol: security.symbol,
      score,
      level: level(score),
      factors: all,
      raised: raised.map((f) => f.id),
      unknownFactors: all.filter((f) => f.raised === null).map((f) => f.id),
      sources: [security.source, ...(honeypot ? [honeypot.source] : [])],
    };
  },
});
