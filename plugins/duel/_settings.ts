import { isAddress, getAddress, type Address } from "viem";
import {
  defineSettings,
  defineUpstreams,
  type DevnetNeeds,
  type EndpointContext,
  type SettingsOf,
} from "../../core/endpoint.ts";

/** The node of the chain where the escrow lives: no public default, the operator (or the devnet) names it. */
export const DUEL_RPC = "duel-rpc";

export const duelUpstreams = defineUpstreams({
  [DUEL_RPC]: {
    commercialUse: "the operator's own node",
    rateLimit: "the operator's node",
    terms:
      "JSON-RPC node of the chain the duel escrow is deployed on (UPSTREAM_DUEL_RPC_URL; the devnet's anvil by default); reads only, the players send their own transactions",
  },
});

/** DUEL_ESCROW_ADDRESS: the escrow the calldata targets and the reads query; unset, only /duel/shoe is mounted. */
export const duelSettings = defineSettings((env) => {
  const escrow = env.DUEL_ESCROW_ADDRESS || undefined;
  if (escrow && !isAddress(escrow)) throw new Error("DUEL_ESCROW_ADDRESS must be a 0x address");
  return { escrow: escrow ? getAddress(escrow) : undefined };
});

export type DuelSettings = SettingsOf<typeof duelSettings>;

/** What the chain-backed duel endpoints take from their context. */
export type DuelContext = Pick<EndpointContext<unknown, typeof DUEL_RPC, DuelSettings>, "upstream" | "settings">;

/** 3% rake, stakes from 0.0001 to 10 ETH, a day to find an opponent, 10 minutes for each later phase. */
const devnetTerms = (owner: Address) => [300, owner, 10n ** 14n, 10n * 10n ** 18n, 86_400n, 600n] as const;

/** On the devnet: the escrow deployed, owned by payTo (which takes the rake), and the duel pointed at it and its chain. */
export const duelDevnet: DevnetNeeds = {
  contracts: [{ name: "DuelEscrow", dir: new URL("./contracts/", import.meta.url), args: devnetTerms }],
  settings: ({ contracts }) => ({ DUEL_ESCROW_ADDRESS: contracts.DuelEscrow }),
  chainUpstreams: [DUEL_RPC],
};
