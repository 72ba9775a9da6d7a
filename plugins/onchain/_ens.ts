import { getAddress, namehash, parseAbi, zeroAddress, type Address, type PublicClient } from "viem";
import { probe } from "../_shared/chain-node.ts";

/** The ENS registry: the same address on Ethereum mainnet and Sepolia. */
export const ENS_REGISTRY: Address = "0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e";

const registryAbi = parseAbi(["function resolver(bytes32 node) view returns (address)"]);
const resolverAbi = parseAbi([
  "function addr(bytes32 node) view returns (address)",
  "function name(bytes32 node) view returns (string)",
  "function text(bytes32 node, string key) view returns (string)",
]);

/** Text records worth returning for an agent: ENSIP-5 global keys and the common service keys. */
export const textKeys = [
  "avatar",
  "url",
  "description",
  "email",
  "com.twitter",
  "com.github",
  "org.telegram",
  "com.discord",
] as const;

export async function resolverOf(client: PublicClient, node: `0x${string}`): Promise<Address | null> {
  const found = await probe(
    client.readContract({ address: ENS_REGISTRY, abi: registryAbi, functionName: "resolver", args: [node] }),
    zeroAddress,
  );
  return found === zeroAddress ? null : getAddress(found);
}

/** The address a normalised name points at, through its resolver; null when it has none. */
export async function forwardLookup(client: PublicClient, name: string) {
  const node = namehash(name);
  const resolver = await resolverOf(client, node);
  if (!resolver) return { resolver: null, address: null };
  const address = await probe(
    client.readContract({ address: resolver, abi: resolverAbi, functionName: "addr", args: [node] }),
    zeroAddress,
  );
  return { resolver, address: address === zeroAddress ? null : getAddress(address) };
}

export async function textRecords(client: PublicClient, resolver: Address, name: string) {
  const node = namehash(name);
  const values = await Promise.all(
    textKeys.map((key) =>
      probe(client.readContract({ address: resolver, abi: resolverAbi, functionName: "text", args: [node, key] }), ""),
    ),
  );
  return Object.fromEntries(textKeys.map((key, i) => [key, values[i] || null])) as Record<
    (typeof textKeys)[number],
    string | null
  >;
}

/** The primary name an address claims through its reverse record (`<hex>.addr.reverse`); null when it claims none. */
export async function reverseLookup(client: PublicClient, address: Address): Promise<string | null> {
  const node = namehash(`${address.slice(2).toLowerCase()}.addr.reverse`);
  const resolver = await resolverOf(client, node);
  if (!resolver) return null;
  const name = await probe(
    client.readContract({ address: resolver, abi: resolverAbi, functionName: "name", args: [node] }),
    "",
  );
  return name || null;
}
