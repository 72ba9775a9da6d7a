import { getAddress, type Abi } from "viem";
import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

export interface SourcifyContract {
  match: "exact_match" | "match" | null;
  creationMatch?: "exact_match" | "match" | null;
  runtimeMatch?: "exact_match" | "match" | null;
  verifiedAt?: string;
  chainId: string;
  address: string;
  abi?: Abi;
  sources?: Record<string, { content: string }>;
  compilation?: { language?: string; compiler?: string; compilerVersion?: string; name?: string; fullyQualifiedName?: string; compilerSettings?: Record<string, unknown> };
  proxyResolution?: { isProxy?: boolean; proxyType?: string | null; implementations?: { address: string; name?: string }[] };
}

/** Sourcify's v2 lookup with the fields asked for; null when the contract is not verified there (a 404). */
export async function sourcifyContract(api: Upstream, chainId: number, address: string, fields: string[]): Promise<SourcifyContract | null> {
  try {
    return await api.json<SourcifyContract>(`/v2/contract/${chainId}/${address}`, { query: { fields: fields.join(",") }, notFoundAs404: true });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return null;
    throw error;
  }
}

/** The human page of a verified contract on Sourcify's repository. */
export const sourcifyPage = (chainId: number, address: string) => `https://repo.sourcify.dev/${chainId}/${address}`;

/** Sourcify's proxy resolution in our shape (checksummed implementation addresses). */
export function proxyOf(resolution: SourcifyContract["proxyResolution"]) {
  return {
    isProxy: Boolean(resolution?.isProxy),
    type: resolution?.proxyType ?? null,
    implementations: (resolution?.implementations ?? []).map((i) => ({ address: getAddress(i.address.toLowerCase()), name: i.name ?? null })),
  };
}
