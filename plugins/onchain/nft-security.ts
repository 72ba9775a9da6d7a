import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { chainField, chainInfo } from "../_shared/chains.ts";
import { flag, fraction, goplus } from "../_shared/goplus.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";

// GoPlus reports these as {value, owner_address, owner_type}: value 1 means someone holds the power, -1 unknown.
const privileges = {
  privilegedMinting: "privileged_minting",
  privilegedBurn: "privileged_burn",
  selfDestruct: "self_destruct",
  transferWithoutApproval: "transfer_without_approval",
} as const;
const plainFlags = {
  malicious: "malicious_nft_contract",
  openSource: "nft_open_source",
  proxy: "nft_proxy",
  restrictedApproval: "restricted_approval",
  oversupplyMinting: "oversupply_minting",
  verified: "nft_verified",
  trusted: "trust_list",
} as const;
// A risk when true; openSource, verified and trusted reassure when true.
const risky = ["malicious", "proxy", "restrictedApproval", "oversupplyMinting", ...Object.keys(privileges)];

/** A privilege as GoPlus reports it: {value, owner_address, owner_type}. */
const Privilege = v.nullish(
  v.object({ value: v.nullish(v.number()), owner_address: v.nullish(v.string()), owner_type: v.nullish(v.string()) }),
);
/** What the code reads of an nft_security report: the privileges; every other field is read as unknown by flag(), fraction() and text(). */
const Report = v.nullable(
  v.looseObject(
    Object.fromEntries(Object.values(privileges).map((field) => [field, Privilege])) as Record<
      (typeof privileges)[keyof typeof privileges],
      typeof Privilege
    >,
  ),
);

const Flag = v.pipe(v.nullable(v.boolean()), v.description("null when GoPlus does not know"));
const PrivilegeOutput = v.object({
  present: Flag,
  owner: v.nullable(v.string()),
  ownerType: v.pipe(v.nullable(v.string()), v.description("contract, eoa, blackhole, multi-address...")),
});
const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

export default defineEndpoint({
  name: "nft-security",
  method: "GET",
  price: "$0.01",
  summary:
    "GoPlus NFT contract risk report: privileged mint and burn, self-destruct, transfers without approval, proxy, malicious flags",
  description:
    "GoPlus Security's nft_security report, normalised: each flag a boolean (null when GoPlus does not know, which is not the same as safe), privileged powers with who holds them, `risks` listing every raised flag. A collection GoPlus has no report for is a 404.",
  input: v.object({ address: addressField("NFT contract address"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    name: v.nullable(v.string()),
    symbol: v.nullable(v.string()),
    standard: v.pipe(v.nullable(v.string()), v.description("erc721 or erc1155")),
    flags: v.object(
      Object.fromEntries(Object.keys(plainFlags).map((k) => [k, Flag])) as Record<keyof typeof plainFlags, typeof Flag>,
    ),
    privileges: v.object(
      Object.fromEntries(Object.keys(privileges).map((k) => [k, PrivilegeOutput])) as Record<
        keyof typeof privileges,
        typeof PrivilegeOutput
      >,
    ),
    risks: v.pipe(v.array(v.string()), v.description("Names of the raised flags and held privileges")),
    items: v.nullable(v.number()),
    holders: v.nullable(v.number()),
    creator: v.nullable(v.string()),
    website: v.nullable(v.string()),
    source: v.string(),
  }),
  example: {
    input: { address: "0xBC4CA0EdA7647A8aB7C2061c2E118A18a936f13D", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0xBC4CA0EdA7647A8aB7C2061c2E118A18a936f13D",
      name: "BoredApeYachtClub",
      symbol: "BAYC",
      standard: "erc721",
      flags: {
        malicious: false,
        openSource: true,
        proxy: false,
        restrictedApproval: false,
        oversupplyMinting: null,
        verified: true,
        trusted: true,
      },
      privileges: {
        privilegedMinting: { present: true, owner: "0xaba7161a7fb69c88e16ed9f455ce62b791ee4d03", ownerType: "eoa" },
        privilegedBurn: { present: false, owner: null, ownerType: null },
        selfDestruct: { present: false, owner: null, ownerType: null },
        transferWithoutApproval: { present: false, owner: null, ownerType: null },
      },
      risks: ["privilegedMinting"],
      items: 10000,
      holders: 5512,
      creator: "0xaba7161a7fb69c88e16ed9f455ce62b791ee4d03",
      website: "http://www.boredapeyachtclub.com/",
      source: "https://gopluslabs.io/nft-security/1/0xBC4CA0EdA7647A8aB7C2061c2E118A18a936f13D",
    },
  },
  cacheTtl: 3600,
  upstreams: ["goplus"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const { id } = chainInfo(input.chain);
    const report = await goplus(upstream("goplus"), `/v1/nft_security/${id}`, Report, {
      contract_addresses: address.toLowerCase(),
    });
    if (!report || Object.keys(report).length === 0 || report.nft_address === null)
      throw notFound(`GoPlus has no NFT report for ${address} on ${input.chain}`);
    const flags = Object.fromEntries(
      Object.entries(plainFlags).map(([name, field]) => [name, flag(report[field])]),
    ) as Record<keyof typeof plainFlags, boolean | null>;
    const held = Object.fromEntries(
      Object.entries(privileges).map(([name, field]) => {
        const p: NonNullable<v.InferOutput<typeof Privilege>> = report[field] ?? {};
        return [
          name,
          {
            present: p.value === -1 ? null : flag(p.value),
            owner: text(p.owner_address),
            ownerType: text(p.owner_type),
          },
        ];
      }),
    ) as Record<keyof typeof privileges, { present: boolean | null; owner: string | null; ownerType: string | null }>;
    const raised = { ...flags, ...Object.fromEntries(Object.entries(held).map(([k, p]) => [k, p.present])) } as Record<
      string,
      boolean | null
    >;
    return {
      chain: input.chain,
      address,
      name: text(report.nft_name),
      symbol: text(report.nft_symbol),
      standard: text(report.nft_erc),
      flags,
      privileges: held,
      risks: risky.filter((k) => raised[k] === true),
      items: fraction(String(report.nft_items ?? "")),
      holders: fraction(String(report.nft_owner_number ?? "")),
      creator: text(report.creator_address),
      website: text(report.website_url),
      source: `https://gopluslabs.io/nft-security/${id}/${address}`,
    };
  },
});
