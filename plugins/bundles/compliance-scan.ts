import * as v from "valibot";
import { addressField } from "../_shared/onchain-inputs.ts";
import { chainField } from "../_shared/chains.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { defineBundle } from "./_compose.ts";
import { bestRecord, LEI_CANDIDATES, LeiDigest, leiDigest, NameInput, Reasons, type SanctionsData } from "./_entity.ts";
import { examples } from "./_examples.ts";

interface AddressSecurity {
  flagged?: boolean;
  risks?: string[];
  flags?: { sanctioned?: boolean | null };
}

const DISCLAIMER =
  "Automated screening against public lists and risk feeds; a match or a clear result is a lead for review, not a legal determination.";

export default defineBundle({
  name: "compliance-scan",
  price: "$0.10",
  summary:
    "Compliance screen of an entity and/or crypto address: sanctions lists, address security and wallet risk, approvals, LEI record, EU VAT validity, one rating with an audit trail",
  description:
    "Composes, for a name: sanctions and gleif; for an address: sanctions (OFAC crypto addresses), address-security, wallet-risk and approvals; for a VAT number: vat-check. Give at least one of name, address, vatNumber. " +
    "The rating is block with any sanctions match or an address flagged as sanctioned; review with another address flag, an invalid VAT number or a name with no close LEI record; else clear. The audit trail lists each sanctions list's publication date and size, so a result can be reproduced.",
  input: v.object({
    name: v.optional(NameInput),
    address: v.optional(addressField("A crypto address to screen")),
    chain: chainField(),
    vatNumber: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(16),
        v.regex(/^[A-Z]{2}[0-9A-Z+*]{2,12}$/, "an EU VAT number with its country prefix, e.g. DE129273398"),
        v.description("EU VAT number with its country prefix"),
      ),
    ),
  }),
  parts: {
    sanctionsName: "sanctions",
    sanctionsAddress: "sanctions",
    addressSecurity: "address-security",
    walletRisk: "wallet-risk",
    approvals: "approvals",
    lei: "gleif",
    vat: "vat-check",
  },
  plan({ name, address, chain, vatNumber }) {
    if (!name && !address && !vatNumber)
      throw badRequest("give at least one of name, address, vatNumber", {
        issues: [{ field: "name", message: "give at least one of name, address, vatNumber" }],
      });
    const onChain = address ? { address, chain } : undefined;
    return {
      sanctionsName: name ? { name } : undefined,
      sanctionsAddress: address ? { address } : undefined,
      addressSecurity: onChain,
      walletRisk: onChain,
      approvals: onChain,
      lei: name ? { q: name, limit: LEI_CANDIDATES } : undefined,
      vat: vatNumber ? { vatNumber } : undefined,
    };
  },
  digest: v.object({
    rating: v.pipe(v.picklist(["clear", "review", "block"]), v.description("clear, review or block")),
    reasons: Reasons,
    lei: LeiDigest,
    vatValid: v.pipe(v.nullable(v.boolean()), v.description("VIES says the VAT number is valid")),
    lists: v.pipe(
      v.array(
        v.object({ id: v.string(), publishedAt: v.nullable(v.string()), entries: v.number(), stale: v.boolean() }),
      ),
      v.description("Audit trail: the sanctions lists screened, their publication dates and sizes"),
    ),
    disclaimer: v.string(),
  }),
  summarize(data, { name }) {
    const screens = [data.sanctionsName, data.sanctionsAddress] as (SanctionsData | undefined)[];
    const security = data.addressSecurity as AddressSecurity | undefined;
    const record = data.lei && name ? bestRecord(data.lei, name) : null;
    const vat = data.vat as { valid?: boolean } | undefined;
    const block: string[] = [];
    const review: string[] = [];
    for (const s of screens)
      for (const m of s?.matches ?? []) block.push(`sanctions match on ${m.list}: ${m.name} (score ${m.score})`);
    if (security?.flags?.sanctioned) block.push("address flagged as sanctioned");
    else if (security?.flagged) review.push(`address flagged: ${(security.risks ?? []).join(", ")}`);
    if (vat && vat.valid === false) review.push("VAT number not valid in VIES");
    if (data.lei && (!record || record.similarity < 0.85)) review.push("no LEI record matches the name");
    const lists = screens.find((s) => s?.lists)?.lists ?? [];
    return {
      rating: block.length ? ("block" as const) : review.length ? ("review" as const) : ("clear" as const),
      reasons: [...block, ...review],
      lei: leiDigest(record && record.similarity >= 0.85 ? record : null),
      vatValid: vat?.valid ?? null,
      lists: lists.map((l) => ({ id: l.id, publishedAt: l.publishedAt, entries: l.entries, stale: l.stale })),
      disclaimer: DISCLAIMER,
    };
  },
  example: examples["compliance-scan"],
});
