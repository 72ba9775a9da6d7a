import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { addressChecks, readAddressSecurity, type AddressCheck } from "../_shared/address-security.ts";
import { chainField, chainInfo } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";

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
    flags: v.object(
      Object.fromEntries(Object.keys(addressChecks).map((k) => [k, Flag])) as Record<AddressCheck, typeof Flag>,
    ),
    risks: v.array(v.string()),
    isContract: Flag,
    maliciousContractsCreated: v.pipe(
      v.nullable(v.number()),
      v.description("Malicious contracts this address deployed"),
    ),
    dataSources: v.array(v.string()),
  }),
  example: {
    input: { address: "0x098B716B8Aaf21512996dC57EB0615e2383E2f96", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x098B716B8Aaf21512996dC57EB0615e2383E2f96",
      flagged: true,
      flags: {
        sanctioned: true,
        phishing: false,
        stealingAttack: true,
        cybercrime: false,
        moneyLaundering: false,
        financialCrime: false,
        mixer: false,
        darkweb: false,
        blackmail: false,
        fakeKyc: false,
        honeypotRelated: false,
        fakeToken: false,
        maliciousMining: false,
        gasAbuse: false,
        blacklistDoubt: false,
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
    const report = await readAddressSecurity(upstream("goplus"), address, id);
    const risks = (Object.keys(addressChecks) as AddressCheck[]).filter((k) => report.flags[k] === true);
    return {
      chain: input.chain,
      address,
      flagged: risks.length > 0,
      flags: report.flags,
      risks,
      isContract: report.isContract,
      maliciousContractsCreated: report.maliciousContractsCreated,
      dataSources: report.dataSources,
    };
  },
});
