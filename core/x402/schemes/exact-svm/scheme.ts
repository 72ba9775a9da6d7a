import type { Rpc, SolanaRpcApi } from "@solana/kit";
import type { X402Scheme } from "../../scheme.ts";
import { exactSvmTerms } from "./terms.ts";

export const exactSvm: X402Scheme = {
  terms: exactSvmTerms,
  fate() {
    const rpcs = new Map<string, Rpc<SolanaRpcApi>>();
    return {
      // Solana's packages load with the first Solana record.
      async pass(rpcUrl) {
        const [{ createSolanaRpc }, { svmFateOf }] = await Promise.all([import("@solana/kit"), import("./fate.ts")]);
        let rpc = rpcs.get(rpcUrl);
        if (!rpc) rpcs.set(rpcUrl, (rpc = createSolanaRpc(rpcUrl)));
        return (record) => svmFateOf(rpc, record);
      },
    };
  },
};
