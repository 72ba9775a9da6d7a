import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainField, chainInfo } from "./_chains.ts";
import { flag, goplus } from "./_goplus.ts";
import { addressField, checksummed } from "./_inputs.ts";

const checks = {
  sanctioned: "sanctioned",
  phishing: "phishing_activities",
  stealingAttack: "stealing_attack",
  cybercrime: "cybercrime",
  moneyLaundering: "money_laundering",
  financialCrime: "financial_crime",
  mixer: "mixer",
  darkweb: "darkweb_transactions",
  blackmail: "blackmail_activities",
  fakeKyc: "fake_kyc",
  honeypotRelated: "honeypot_related_address",
  fakeToken: "fake_token",
  maliciousMining: "malicious_mining_activities",
  gasAbuse: "gas_abuse",
  blacklistDoubt: "blacklist_doubt",
} as const;

const Flag = v.pipe(v.nullable(v.boolean()), v.description("null when GoPlus does not say"));

export default defineEndpoint({
  name: "address-security",
  method: "GET",
  price: "$0.01",
  summary: "Is an address known for phishing, theft, sanctions, laundering or mixers? GoPlus malicious-address flags",
  description:
    "GoPlus Security's address_security report, normalised to booleans. No flag raised means GoPlus knows nothing bad about the address, not that it is safe. `dataSources` names where GoPlus's flags came from.",
  input: v.object({ address: addressField("Address to screen"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    flagged: v.pipe(v.boolean(), v.description("At least one flag is raised")),
    flags: v.object(Object.fromEntries(Object.keys(checks).map((k) => [k, Flag])) as Record<keyof typeof checks, typeof Flag>),
    risks: v.array(v.string()),
    isContract: Flag,
    maliciousContractsCreated: v.pipe(v.nullable(v.number()), v.description("Malicious contracts this address deployed")),
    dataSources: v.array(v.string()),
  }),
  example: {
    input: { address: "0x098B716B8Aaf21512996dC57EB0615e2383E2f96", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x098B716B8Aaf21512996dC57EB0615e2383E2f96",
      flagged: true,
      flags: {
        sanctioned: true, phishing: false, stealingAttack: true, cybercrime: false, moneyLaundering: false, financialCrime: false, mixer: false,
        darkweb: false, blackmail: false, fakeKyc: false, honeypotRelated: false, fakeToken: false, maliciousMining: false, gasAbuse: false, blacklistDoubt: false,
      },
      risks: ["sanctioned", "stealingAttack"],
      isContract: false,
      maliciousContractsCreated: 0,
      dataSources: ["OFAC", "SlowMist"],
    },
  },
  cacheTtl: 3600,
  upstreams: ["goplus"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const { id } = chainInfo(input.chain);
    const report = await goplus<Record<string, unknown>>(upstream("goplus"), `/v1/address_security/${address}`, { chain_id: String(id) });
    const flags = Object.fromEntries(Object.entries(checks).map(([name, field]) => [name, flag(report?.[field])])) as Record<keyof typeof checks, boolean | null>;
    const risks = Object.keys(checks).filter((k) => flags[k as keyof typeof checks] === true);
    const created = Number(report?.number_of_malicious_contracts_created);
    const sources = typeof report?.data_source === "string" ? report.data_source.split(",").map((s) => s.trim()).filter(Boolean) : [];
    return {
      chain: input.chain,
      address,
      flagged: risks.length > 0,
      flags,
      risks,
      isContract: flag(report?.contract_address),
      maliciousContractsCreated: Number.isFinite(created) && report?.number_of_malicious_contracts_created !== undefined ? created : null,
      dataSources: sources,
    };
  },
});
