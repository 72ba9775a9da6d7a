import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorClient } from "@x402/core/server";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, defineChain, http, nonceManager, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/**
 * The in-process x402Facilitator for the reference servers (research x402.md 3.4), set up exactly like
 * core/x402/facilitator.ts createLocalFacilitator (local nonce manager, batched HTTP transport, 100 ms
 * receipt polling), so the paid comparison measures the servers and not two different facilitators.
 * x402ResourceServer also asks it getSupported() (synchronous here, a promise in FacilitatorClient).
 */
export function referenceFacilitator(o: { rpcUrl: string; chainId: number; relayerKey: `0x${string}` }): FacilitatorClient {
  const account = privateKeyToAccount(o.relayerKey, { nonceManager });
  const chain = defineChain({
    id: o.chainId,
    name: `eip155:${o.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [o.rpcUrl] } },
  });
  const client = createWalletClient({ account, chain, transport: http(o.rpcUrl, { batch: true }) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (a) => client.readContract({ ...a, args: a.args ?? [] } as any),
      verifyTypedData: (a) => client.verifyTypedData(a as any),
      writeContract: (a) => client.writeContract({ ...a, args: a.args ?? [] } as any),
      sendTransaction: (a) => client.sendTransaction(a as any),
      waitForTransactionReceipt: (a) => client.waitForTransactionReceipt({ ...a, pollingInterval: 100 }),
      getCode: (a) => client.getCode(a),
    },
    { confirmationTimeoutMs: 60_000 },
  );
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: [`eip155:${o.chainId}`] });
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient["getSupported"]>>,
  };
}
