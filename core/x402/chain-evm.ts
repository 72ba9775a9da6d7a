import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { watchBalance } from "../runtime/prometheus.ts";
import type { ChainFamily } from "./chain-family.ts";
import { createLocalFacilitator, createRemoteFacilitator, remoteKindExtra } from "./facilitator.ts";
import { chainProbe } from "./probes.ts";
import { createContractSignatureProver } from "./schemes/exact-eip3009/contract-signature.ts";

/** EVM networks (eip155): a local relayer settles, or the option's remote facilitator. */
export const evmChains: ChainFamily = {
  async facilitator(o, uptoOffered, relayer) {
    const f = o.facilitator;
    // upto stays with the EIP-3009 tokens: a token paid through Permit2 is offered with exact.
    const upto = uptoOffered && o.option.extra.assetTransferMethod !== "permit2";
    if (f.kind === "remote") {
      if (upto)
        o.option.upto = {
          facilitatorAddress: await remoteKindExtra(f.url, f.auth, "upto", o.option.network, "facilitatorAddress"),
        };
      return createRemoteFacilitator({ url: f.url, auth: f.auth });
    }
    // The relayer settles: the upto proxy lets only the facilitator a permit names move the money.
    if (upto) o.option.upto = { facilitatorAddress: privateKeyToAccount(f.relayerKey as `0x${string}`).address };
    return createLocalFacilitator({
      rpcUrl: f.rpcUrl,
      chainId: Number(o.option.network.split(":")[1]),
      relayerKey: f.relayerKey as `0x${string}`,
      ...relayer,
    });
  },
  probe: chainProbe,
  watchFeeWallet(o) {
    const address = privateKeyToAccount(o.facilitator.relayerKey as `0x${string}`).address;
    const client = createPublicClient({ transport: http(o.facilitator.rpcUrl) });
    watchBalance(
      { role: "relayer", network: o.option.network, address },
      async () => Number(await client.getBalance({ address })) / 1e18,
    );
  },
  contractSignatureProver: createContractSignatureProver,
  servesChainReads: true,
};
