import type { Upstream } from "../../core/endpoint.ts";
import { readAddressSecurity, type AddressCheck } from "../_shared/address-security.ts";

/** GoPlus's malicious-activity flags (not sanctions, mixer or blacklist doubt), as a compliance report words them. */
const maliciousLabels = {
  phishing: "phishing",
  stealingAttack: "theft",
  cybercrime: "cybercrime",
  moneyLaundering: "money laundering",
  financialCrime: "financial crime",
  blackmail: "blackmail",
  darkweb: "darkweb transactions",
  fakeKyc: "fake KYC",
  honeypotRelated: "honeypot related",
  fakeToken: "fake token",
  maliciousMining: "malicious mining",
  gasAbuse: "gas abuse",
} as const satisfies Partial<Record<AddressCheck, string>>;

export interface AddressReport {
  sanctioned: boolean | null;
  mixer: boolean | null;
  blacklistDoubt: boolean | null;
  malicious: string[];
  maliciousContractsCreated: number | null;
  /** How a factor cites GoPlus, with the sources GoPlus named. */
  source: string;
}

/** onchain/address-security's GoPlus report, in the terms the compliance scores use. */
export async function addressReport(api: Upstream, address: string, chainId: number): Promise<AddressReport> {
  const { flags, maliciousContractsCreated, dataSources } = await readAddressSecurity(api, address, chainId);
  return {
    sanctioned: flags.sanctioned,
    mixer: flags.mixer,
    blacklistDoubt: flags.blacklistDoubt,
    malicious: Object.entries(maliciousLabels)
      .filter(([check]) => flags[check as AddressCheck] === true)
      .map(([, label]) => label),
    maliciousContractsCreated,
    source: `GoPlus Security address_security${dataSources.length ? ` (data from ${dataSources.join(", ")})` : ""}`,
  };
}
