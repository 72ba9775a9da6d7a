import * as v from "valibot";
import { getAddress, type Abi } from "viem";
import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

interface AbiParameter {
  type: string;
  name?: string;
  components?: AbiParameter[];
}
const o = v.optional;
/** An ABI parameter as viem's signature helpers read it; every other key is kept, since the ABI is answered as given. */
const AbiParameter: v.GenericSchema<AbiParameter> = v.looseObject({
  type: v.string(),
  name: o(v.string()),
  components: o(v.array(v.lazy(() => AbiParameter))),
});
const AbiItem = v.variant("type", [
  v.looseObject({
    type: v.literal("function"),
    name: v.string(),
    inputs: v.array(AbiParameter),
    outputs: o(v.array(AbiParameter)),
    stateMutability: v.string(),
  }),
  v.looseObject({ type: v.literal("event"), name: v.string(), inputs: v.array(AbiParameter) }),
  v.looseObject({ type: v.string() }),
]);
const Match = v.nullable(v.picklist(["exact_match", "match"]));

/** What the code reads of Sourcify's v2 contract lookup (only the fields asked for come). */
const SourcifyAnswer = v.object({
  match: Match,
  verifiedAt: o(v.string()),
  abi: o(v.array(AbiItem)),
  sources: o(v.record(v.string(), v.object({ content: v.string() }))),
  compilation: o(
    v.object({
      language: o(v.string()),
      compilerVersion: o(v.string()),
      name: o(v.string()),
      fullyQualifiedName: o(v.string()),
      compilerSettings: o(v.record(v.string(), v.unknown())),
    }),
  ),
  proxyResolution: o(
    v.object({
      isProxy: o(v.boolean()),
      proxyType: v.nullish(v.string()),
      implementations: o(
        v.array(
          v.object({
            address: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, "not an address")),
            name: o(v.string()),
          }),
        ),
      ),
    }),
  ),
});
/** The ABI checked item by item for what viem's signature helpers read, typed as viem's. */
export type SourcifyContract = Omit<v.InferOutput<typeof SourcifyAnswer>, "abi"> & { abi?: Abi };

/** Sourcify's v2 lookup with the fields asked for; null when the contract is not verified there (a 404). */
export async function sourcifyContract(
  api: Upstream,
  chainId: number,
  address: string,
  fields: string[],
): Promise<SourcifyContract | null> {
  try {
    return (await api.json(`/v2/contract/${chainId}/${address}`, SourcifyAnswer, {
      query: { fields: fields.join(",") },
      notFoundAs404: true,
    })) as SourcifyContract;
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
    implementations: (resolution?.implementations ?? []).map((i) => ({
      address: getAddress(i.address.toLowerCase()),
      name: i.name ?? null,
    })),
  };
}
