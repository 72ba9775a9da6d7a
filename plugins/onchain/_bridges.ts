import type { ChainSlug } from "../_shared/chains.ts";

/** A canonical (rollup or chain-operator) bridge contract a wallet sends a transaction to when it bridges. */
export interface CanonicalBridge {
  contract: string;
  name: string;
  /** Where the address is published. */
  reference: string;
}

const ARBITRUM_DOCS = "https://docs.arbitrum.io/build-decentralized-apps/reference/contract-addresses";
const OP_DOCS = "https://docs.optimism.io/superchain/addresses";
const BASE_DOCS = "https://docs.base.org/base-chain/network-information/base-contracts";
const OP_PREDEPLOYS = "https://specs.optimism.io/protocol/predeploys.html";
const GNOSIS_DOCS = "https://docs.gnosischain.com/bridges/tokenbridge/omnibridge";

// OP Stack predeploys: the same addresses on every OP Stack chain (OP Mainnet, Base, Base Sepolia).
const opStackWithdrawals: CanonicalBridge[] = [
  {
    contract: "0x4200000000000000000000000000000000000010",
    name: "OP Stack L2StandardBridge (withdrawal)",
    reference: OP_PREDEPLOYS,
  },
  {
    contract: "0x4200000000000000000000000000000000000016",
    name: "OP Stack L2ToL1MessagePasser (withdrawal)",
    reference: OP_PREDEPLOYS,
  },
];

/**
 * Only addresses published by the bridge's operator. Polygon PoS has none on its own side: a withdrawal burns
 * the token on the token's own contract, so polygon lists no bridge.
 */
export const canonicalBridges: Partial<Record<ChainSlug, CanonicalBridge[]>> = {
  ethereum: [
    // Arbitrum One core and token-bridge contracts on Ethereum, listed in the Arbitrum docs.
    {
      contract: "0x4Dbd4fc535Ac27206064B68FfCf827b0A60BAB3f",
      name: "Arbitrum One Delayed Inbox",
      reference: ARBITRUM_DOCS,
    },
    {
      contract: "0x72Ce9c846789fdB6fC1f34aC4AD25Dd9ef7031ef",
      name: "Arbitrum One L1 Gateway Router",
      reference: ARBITRUM_DOCS,
    },
    // OP Mainnet L1 contracts, listed in the Optimism docs.
    { contract: "0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1", name: "OP Mainnet L1StandardBridge", reference: OP_DOCS },
    { contract: "0xbEb5Fc579115071764c7423A4f12eDde41f106Ed", name: "OP Mainnet OptimismPortal", reference: OP_DOCS },
    // Base L1 contracts, listed in the Base docs.
    { contract: "0x3154Cf16ccdb4C6d922629664174b904d80F2C35", name: "Base L1StandardBridge", reference: BASE_DOCS },
    { contract: "0x49048044D57e1C92A77f79988d21Fa8fAF74E97e", name: "Base OptimismPortal", reference: BASE_DOCS },
    // Polygon PoS RootChainManager proxy, in Polygon's PoS contract list.
    {
      contract: "0xA0c68C638235ee32657e8f720a23ceC1bFc77C77",
      name: "Polygon PoS RootChainManager",
      reference: "https://docs.polygon.technology/pos/reference/contracts/",
    },
    // ZKsync Era diamond proxy (deposits call requestL2Transaction on it), in the ZKsync docs.
    {
      contract: "0x32400084C286CF3E17e7B677ea9583e60a000324",
      name: "ZKsync Era Diamond Proxy",
      reference: "https://docs.zksync.io/zksync-era/environment/contract-addresses",
    },
    // Gnosis Chain bridges on Ethereum: Omnibridge foreign mediator and the xDai bridge, in the Gnosis docs.
    { contract: "0x88ad09518695c6c3712AC10a214bE5109a655671", name: "Gnosis Omnibridge", reference: GNOSIS_DOCS },
    {
      contract: "0x4aa42145Aa6Ebf72e164C9bBC74fbD3788045016",
      name: "Gnosis xDai Bridge",
      reference: "https://docs.gnosischain.com/bridges/tokenbridge/xdai-bridge",
    },
  ],
  optimism: opStackWithdrawals,
  base: opStackWithdrawals,
  "base-sepolia": opStackWithdrawals,
  arbitrum: [
    // ArbSys precompile (withdrawEth) and the L2 gateway router, in the Arbitrum docs.
    {
      contract: "0x0000000000000000000000000000000000000064",
      name: "Arbitrum ArbSys (withdrawal)",
      reference: "https://docs.arbitrum.io/build-decentralized-apps/precompiles/reference",
    },
    {
      contract: "0x5288c571Fd7aD117beA99bF60FE0846C4E84F933",
      name: "Arbitrum One L2 Gateway Router",
      reference: ARBITRUM_DOCS,
    },
  ],
  gnosis: [
    // Gnosis-side Omnibridge home mediator and xDai home bridge, in the Gnosis docs.
    {
      contract: "0xf6A78083ca3e2a662D6dd1703c939c8aCE2e268d",
      name: "Gnosis Omnibridge (home)",
      reference: GNOSIS_DOCS,
    },
    {
      contract: "0x7301CFA0e1756B71869E93d4e4Dca5c7d0eb0AA6",
      name: "Gnosis xDai Bridge (home)",
      reference: "https://docs.gnosischain.com/bridges/tokenbridge/xdai-bridge",
    },
  ],
};

const byContract = new Map(
  Object.entries(canonicalBridges).flatMap(([slug, list]) =>
    list.map((b) => [`${slug}:${b.contract.toLowerCase()}`, b] as const),
  ),
);

export const bridgeAt = (chain: ChainSlug, contract: string) => byContract.get(`${chain}:${contract.toLowerCase()}`);
