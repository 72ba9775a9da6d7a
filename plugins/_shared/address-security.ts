import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { flag, goplus } from "./goplus.ts";

/** GoPlus address_security fields, by the name the service gives each flag. */
export const addressChecks = {
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

/** The report's fields are all read as unknown by flag() and the checks below; none at all when GoPlus has nothing. */
const Report = v.nullable(v.record(v.string(), v.unknown()));

export type AddressCheck = keyof typeof addressChecks;

export interface AddressSecurity {
  /** true/false as GoPlus says, null when it does not. */
  flags: Record<AddressCheck, boolean | null>;
  isContract: boolean | null;
  maliciousContractsCreated: number | null;
  /** Where GoPlus's flags came from (OFAC, SlowMist...). */
  dataSources: string[];
}

/** GoPlus's malicious-address report of one address, normalised. */
export async function readAddressSecurity(api: Upstream, address: string, chainId: number): Promise<AddressSecurity> {
  const report = await goplus(api, `/v1/address_security/${address}`, Report, { chain_id: String(chainId) });
  const flags = Object.fromEntries(
    Object.entries(addressChecks).map(([name, field]) => [name, flag(report?.[field])]),
  ) as Record<AddressCheck, boolean | null>;
  const created = Number(report?.number_of_malicious_contracts_created);
  return {
    flags,
    isContract: flag(report?.contract_address),
    maliciousContractsCreated:
      report?.number_of_malicious_contracts_created !== undefined && Number.isFinite(created) ? created : null,
    dataSources:
      typeof report?.data_source === "string"
        ? report.data_source
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
  };
}
