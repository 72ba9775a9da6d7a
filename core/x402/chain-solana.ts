import { watchBalance } from "../runtime/prometheus.ts";
import type { ChainFamily } from "./chain-family.ts";
import { createRemoteFacilitator, remoteKindExtra } from "./facilitator.ts";
import { svmChainProbe } from "./probes.ts";

/**
 * Solana networks: the 402 names the fee payer that will sign, the local key's address, the configured one, or the
 * remote facilitator's (its /supported), so the option is complete only once its facilitator is built.
 */
export const solanaChains: ChainFamily = {
  async facilitator(o) {
    const f = o.facilitator;
    if (f.kind === "remote") {
      o.option.extra = {
        feePayer: o.feePayer ?? (await remoteKindExtra(f.url, f.auth, "exact", o.option.network, "feePayer")),
      };
      return createRemoteFacilitator({ url: f.url, auth: f.auth });
    }
    // Solana's packages load only for a Solana option.
    const { createLocalSvmFacilitator, svmSignerOf } = await import("./schemes/exact-svm/facilitator.ts");
    const feePayer = await svmSignerOf(f.relayerKey);
    o.option.extra = { feePayer: feePayer.address };
    return createLocalSvmFacilitator({ rpcUrl: f.rpcUrl, network: o.option.network, feePayer });
  },
  probe: svmChainProbe,
  watchFeeWallet(o) {
    const address = o.option.extra.feePayer;
    watchBalance({ role: "fee-payer", network: o.option.network, address }, () =>
      lamportsOf(o.facilitator.rpcUrl, address).then((n) => n / 1e9),
    );
  },
};

async function lamportsOf(rpcUrl: string, address: string): Promise<number> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getBalance", params: [address] }),
    signal: AbortSignal.timeout(5_000),
  });
  const { result } = (await res.json()) as { result?: { value?: number } };
  if (typeof result?.value !== "number") throw new Error("getBalance gave no value");
  return result.value;
}
