import {
  getAddress,
  keccak256,
  parseAbi,
  sliceHex,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { probe } from "../_shared/chain-node.ts";

export const proxyStandards = [
  "eip-1167",
  "eip-1967",
  "eip-1967-beacon",
  "eip-1822",
  "openzeppelin-legacy",
  "safe",
  "eip-2535-diamond",
] as const;
export type ProxyStandard = (typeof proxyStandards)[number];

export interface ProxyInfo {
  isContract: boolean;
  isProxy: boolean;
  standard: ProxyStandard | null;
  implementation: Address | null;
  /** Who can upgrade (EIP-1967 or OpenZeppelin legacy admin slot), when set. */
  admin: Address | null;
  beacon: Address | null;
  /** Diamond facets (EIP-2535). */
  facets: Address[];
}

// Storage slots defined by the standards (EIP-1967 slots are keccak256(name) - 1).
const slots = {
  implementation: "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc",
  beacon: "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50",
  admin: "0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103",
  proxiable: keccak256(toHex("PROXIABLE")),
  ozLegacy: keccak256(toHex("org.zeppelinos.proxy.implementation")),
  ozLegacyAdmin: keccak256(toHex("org.zeppelinos.proxy.admin")),
} as const;

const probes = parseAbi([
  "function implementation() view returns (address)",
  "function masterCopy() view returns (address)",
  "function facetAddresses() view returns (address[])",
]);

const minimalProxy = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/i;

/** Finds which proxy pattern, if any, a contract follows, reading only code and storage from the node. */
export async function detectProxy(client: PublicClient, address: Address, code?: Hex): Promise<ProxyInfo> {
  const bytecode = code ?? (await client.getCode({ address })) ?? "0x";
  const none: ProxyInfo = {
    isContract: bytecode !== "0x",
    isProxy: false,
    standard: null,
    implementation: null,
    admin: null,
    beacon: null,
    facets: [],
  };
  if (bytecode === "0x") return none;
  const clone = minimalProxy.exec(bytecode);
  if (clone) return { ...none, isProxy: true, standard: "eip-1167", implementation: getAddress(`0x${clone[1]}`) };

  const read = async (slot: Hex) => slotAddress(await client.getStorageAt({ address, slot }));
  const [implementation, beacon, admin, proxiable, ozLegacy, ozLegacyAdmin] = await Promise.all([
    read(slots.implementation),
    read(slots.beacon),
    read(slots.admin),
    read(slots.proxiable),
    read(slots.ozLegacy),
    read(slots.ozLegacyAdmin),
  ]);
  if (implementation) return { ...none, isProxy: true, standard: "eip-1967", implementation, admin };
  if (beacon) {
    const behind = await call(client, beacon, "implementation");
    return {
      ...none,
      isProxy: true,
      standard: "eip-1967-beacon",
      implementation: typeof behind === "string" ? getAddress(behind) : null,
      beacon,
      admin,
    };
  }
  if (proxiable) return { ...none, isProxy: true, standard: "eip-1822", implementation: proxiable };
  if (ozLegacy)
    return { ...none, isProxy: true, standard: "openzeppelin-legacy", implementation: ozLegacy, admin: ozLegacyAdmin };

  const [singleton, facets] = await Promise.all([
    call(client, address, "masterCopy"),
    call(client, address, "facetAddresses"),
  ]);
  if (typeof singleton === "string" && singleton !== zeroAddress) {
    return { ...none, isProxy: true, standard: "safe", implementation: getAddress(singleton) };
  }
  if (Array.isArray(facets) && facets.length > 0) {
    return { ...none, isProxy: true, standard: "eip-2535-diamond", facets: facets.map((f) => getAddress(f)) };
  }
  return none;
}

function slotAddress(value: Hex | undefined): Address | null {
  if (!value || BigInt(value) === 0n) return null;
  const word = value.length === 66 ? value : toHex(BigInt(value), { size: 32 });
  return getAddress(sliceHex(word, 12));
}

async function call(
  client: PublicClient,
  address: Address,
  functionName: "implementation" | "masterCopy" | "facetAddresses",
) {
  return probe(client.readContract({ address, abi: probes, functionName }), undefined);
}
