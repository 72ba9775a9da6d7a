import type { Upstream } from "../../core/endpoint.ts";
import { flag, goplus } from "../onchain/_goplus.ts";

/** GoPlus address_security fields grouped by what they mean for a counterparty. */
export const maliciousFields = {
  phishing_activities: "phishing",
  stealing_attack: "theft",
  cybercrime: "cybercrime",
  money_laundering: "money laundering",
  financial_crime: "financial crime",
  blackmail_activities: "blackmail",
  darkweb_transactions: "darkweb transactions",
  fake_kyc: "fake KYC",
  honeypot_related_address: "honeypot related",
  fake_token: "fake token",
  malicious_mining_activities: "malicious mining",
  gas_abuse: "gas abuse",
} as const;

export interface AddressReport {
  sanctioned: boolean | null;
  mixer: boolean | null;
  blacklistDoubt: boolean | null;
  malicious: string[];
  maliciousContractsCreated: number | null;
  dataSources: string[];
}

/**
 * GoPlus's malicious-address report, read the way onchain/address-security reads it. That endpoint keeps its
 * reader inside its handler, so this is the minimal one the compliance scores need.
 */
export async function addressReport(api: Upstream, address: string, chainId: number): Promise<AddressReport> {
  const r = await goplus<Record<string, unknown>>(api, `/v1/address_security/${address}`, { chain_id: String(chainId) });
  const created = Number(r?.number_of_malicious_contracts_created);
  return {
    sanctioned: flag(r?.sanctioned),
    mixer: flag(r?.mixer),
    blacklistDoubt: flag(r?.blacklist_doubt),
    malicious: Object.entries(maliciousFields).filter(([field]) => flag(r?.[field]) === true).map(([, label]) => label),
    maliciousContractsCreated: r?.number_of_malicious_contracts_created !== undefined && Number.isFinite(created) ? created : null,
    dataSources: typeof r?.data_source === "string" ? r.data_source.split(",").map((s) => s.trim()).filter(Boolean) : [],
  };
}
