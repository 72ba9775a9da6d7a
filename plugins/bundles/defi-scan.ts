import * as v from "valibot";
import { addressField } from "../_shared/onchain-inputs.ts";
import { chainField } from "../_shared/chains.ts";
import { defineBundle, skip } from "./_compose.ts";
import { Level } from "./_digest.ts";
import { Evidence, HOLDER_CHAINS, HONEYPOT_CHAINS, levelOf, POINTS, scoreOf, tokenEvidence } from "./_token-risk.ts";
import { examples } from "./_examples.ts";

interface ContractData {
  verified?: boolean;
  proxy?: { isProxy: boolean; admin: string | null };
}
interface DappData {
  maliciousContracts?: number;
  audited?: boolean | null;
}

export default defineBundle({
  name: "defi-scan",
  price: "$0.05",
  summary:
    "DeFi token and contract scan: contract profile, token security, honeypot simulation, holders, rug score, proxy, chain TVL, dApp site check, one risk score",
  description:
    "Composes contract, token-security, honeypot-check (Ethereum, BSC, Base), token-holders, rug-check, proxy-detect, tvl (the chain's DeFi TVL) and, given the project's site, dapp-security. " +
    `The summary merges them into one 0-100 score with per-check evidence: rug-check's raised factors with its points (else GoPlus risks, a honeypot, high sell tax, concentration), an unverified contract ${POINTS.unverified}, an upgradeable proxy ${POINTS.upgradeable}, a dApp with malicious contracts ${POINTS.maliciousDapp}; 50 and above is high, 20 and above medium.`,
  input: v.object({
    address: addressField("The token or contract to scan"),
    chain: chainField(),
    url: v.optional(
      v.pipe(
        v.string(),
        v.minLength(3),
        v.maxLength(500),
        v.regex(
          /^(https?:\/\/)?[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}(:\d+)?(\/\S*)?$/,
          "a site such as https://app.example.org",
        ),
        v.description("The project's web app, for dapp-security"),
      ),
    ),
  }),
  parts: {
    contract: "contract",
    tokenSecurity: "token-security",
    honeypot: "honeypot-check",
    holders: "token-holders",
    rugCheck: "rug-check",
    proxy: "proxy-detect",
    tvl: "tvl",
    dapp: "dapp-security",
  },
  plan({ address, chain, url }) {
    return {
      contract: { address, chain },
      tokenSecurity: { address, chain },
      honeypot: HONEYPOT_CHAINS.includes(chain)
        ? { address, chain }
        : skip(`the honeypot simulation covers ${HONEYPOT_CHAINS.join(", ")}`),
      holders: HOLDER_CHAINS.includes(chain) ? { address, chain, limit: 10 } : skip(`no holder index for ${chain}`),
      rugCheck: { address, chain },
      proxy: { address, chain },
      tvl: { chain, limit: 5 },
      dapp: url ? { url } : skip("pass url (the project's site) for the dApp check"),
    };
  },
  digest: v.object({
    score: v.pipe(v.number(), v.minValue(0), v.maxValue(100), v.description("Risk score, 0 (nothing found) to 100")),
    level: Level,
    evidence: Evidence,
    verified: v.pipe(v.nullable(v.boolean()), v.description("Source verified on Sourcify (contract part)")),
    upgradeable: v.pipe(v.nullable(v.boolean()), v.description("Behind a proxy whose implementation can change")),
  }),
  summarize(data) {
    const contract = data.contract as ContractData | undefined;
    const proxy = (data.proxy as { isProxy?: boolean } | undefined)?.isProxy ?? contract?.proxy?.isProxy;
    const dapp = data.dapp as DappData | undefined;
    const evidence = tokenEvidence(data);
    const rugSaw = (label: string) => evidence.some((e) => e.part === "rugCheck" && e.finding === label);
    if (contract?.verified === false && !rugSaw("Source not verified"))
      evidence.push({ part: "contract", finding: "source not verified", points: POINTS.unverified });
    if (proxy)
      evidence.push({ part: "proxy", finding: "upgradeable proxy: the code can change", points: POINTS.upgradeable });
    if (dapp?.maliciousContracts)
      evidence.push({
        part: "dapp",
        finding: `${dapp.maliciousContracts} malicious contracts linked to the site`,
        points: POINTS.maliciousDapp,
      });
    const score = scoreOf(evidence);
    return { score, level: levelOf(score), evidence, verified: contract?.verified ?? null, upgradeable: proxy ?? null };
  },
  example: examples["defi-scan"],
});
