import type { ChainFamily } from "./chain-family.ts";
import { evmChains } from "./chain-evm.ts";
import { solanaChains } from "./chain-solana.ts";

/** The network families the rail settles on, by CAIP-2 namespace. */
const families: Record<string, ChainFamily> = { eip155: evmChains, solana: solanaChains };

/** The family of a CAIP-2 network; a network of none is refused when its option is read (options.ts). */
export function chainFamilyOf(network: string): ChainFamily {
  const namespace = network.split(":")[0];
  const family = Object.hasOwn(families, namespace) ? families[namespace] : undefined;
  if (!family) throw new Error(`no payment rail for network ${network}`);
  return family;
}
