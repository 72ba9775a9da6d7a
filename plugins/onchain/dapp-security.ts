import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { flag, goplus } from "../_shared/goplus.ts";

const o = v.optional;
const flagValue = o(v.union([v.number(), v.string()]));
const Audit = v.object({ audit_time: o(v.string()), audit_link: o(v.string()), audit_firm: o(v.string()) });
/** What the code reads of a dapp_security report. */
const DappReport = v.nullable(
  v.object({
    project_name: o(v.string()),
    url: o(v.string()),
    is_audit: flagValue,
    // Documented as the latest report; some answers carry a list.
    audit_info: v.nullish(v.union([v.array(Audit), Audit])),
    trust_list: flagValue,
    contracts_security: o(
      v.array(
        v.object({
          chain_id: v.union([v.number(), v.string()]),
          contracts: o(
            v.array(
              v.object({
                contract_address: v.string(),
                is_open_source: flagValue,
                malicious_contract: flagValue,
                malicious_behavior: o(v.array(v.string())),
                deployment_time: v.nullish(v.number()),
                creator_address: v.nullish(v.string()),
                malicious_creator: flagValue,
              }),
            ),
          ),
        }),
      ),
    ),
  }),
);

const Flag = v.pipe(v.nullable(v.boolean()), v.description("null when GoPlus does not say"));

export default defineEndpoint({
  name: "dapp-security",
  method: "GET",
  price: "$0.005",
  summary: "GoPlus dApp report for a site: audits, trust list, and each of its contracts' malicious flags",
  description:
    "GoPlus Security's dapp_security report for a URL or domain. GoPlus knows only the dApps it lists: an unlisted site is a 404 (unknown, not safe). `audited: false` means GoPlus found no audit, not that there is none.",
  input: v.object({
    url: v.pipe(
      v.string(),
      v.minLength(3),
      v.maxLength(500),
      v.regex(/^(https?:\/\/)?[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}(:\d+)?(\/\S*)?$/, "must be a URL or a domain name"),
      v.description("dApp URL or domain, e.g. https://app.uniswap.org"),
    ),
  }),
  output: v.object({
    url: v.string(),
    project: v.nullable(v.string()),
    trusted: Flag,
    audited: Flag,
    audits: v.array(
      v.object({ firm: v.nullable(v.string()), date: v.nullable(v.string()), link: v.nullable(v.string()) }),
    ),
    maliciousContracts: v.pipe(v.number(), v.description("Contracts (or their creators) GoPlus flags as malicious")),
    contracts: v.array(
      v.object({
        chainId: v.number(),
        address: v.string(),
        openSource: Flag,
        malicious: Flag,
        maliciousBehavior: v.array(v.string()),
        creator: v.nullable(v.string()),
        maliciousCreator: Flag,
        deployedAt: v.pipe(v.nullable(v.string()), v.description("ISO 8601 UTC")),
      }),
    ),
  }),
  example: {
    input: { url: "https://for.tube" },
    output: {
      url: "https://for.tube",
      project: "ForTube",
      trusted: true,
      audited: true,
      audits: [{ firm: "CertiK", date: "2021-07-18", link: "https://www.certik.com/projects/fortube" }],
      maliciousContracts: 0,
      contracts: [
        {
          chainId: 56,
          address: "0x744aF9cBb7606BB040f6FBf1c0a0B0dcBA6385E5",
          openSource: true,
          malicious: false,
          maliciousBehavior: [],
          creator: "0xb6a70e26be27cda6ec4bf8e0df4a49ebc26f087b",
          maliciousCreator: false,
          deployedAt: "2021-07-18T03:19:05.000Z",
        },
      ],
    },
  },
  cacheTtl: 21_600,
  upstreams: ["goplus"],
  async handler({ input, upstream }) {
    const report = await goplus(upstream("goplus"), "/v1/dapp_security", DappReport, { url: input.url });
    if (!report?.url) throw notFound(`GoPlus has no dApp report for ${input.url}`);
    const contracts = (report.contracts_security ?? []).flatMap((chain) =>
      (chain.contracts ?? []).map((c) => ({
        chainId: Number(chain.chain_id),
        address: c.contract_address,
        openSource: flag(c.is_open_source),
        malicious: flag(c.malicious_contract),
        maliciousBehavior: c.malicious_behavior ?? [],
        creator: c.creator_address ?? null,
        maliciousCreator: flag(c.malicious_creator),
        deployedAt: typeof c.deployment_time === "number" ? new Date(c.deployment_time * 1000).toISOString() : null,
      })),
    );
    return {
      url: report.url,
      project: report.project_name ?? null,
      trusted: flag(report.trust_list),
      audited: flag(report.is_audit),
      audits: [report.audit_info ?? []]
        .flat()
        .map((a) => ({ firm: a.audit_firm ?? null, date: a.audit_time ?? null, link: a.audit_link ?? null })),
      maliciousContracts: contracts.filter((c) => c.malicious || c.maliciousCreator).length,
      contracts,
    };
  },
});
