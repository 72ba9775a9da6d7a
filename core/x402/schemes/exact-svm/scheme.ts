import type { Rpc, SolanaRpcApi } from "@solana/kit";
import { PaymentRejected } from "../../codec.ts";
import { matchExact } from "../../exact.ts";
import type { X402Scheme } from "../../scheme.ts";
import { exactSvmTerms } from "./terms.ts";

export const exactSvm: X402Scheme = {
  terms: exactSvmTerms,
  takes: { scheme: "exact", namespace: "solana", v1: true },
  async bind(decoded, route, nowSeconds, parts) {
    const { clockSkewSeconds: _, ...common } = parts;
    const matched = matchExact(decoded, route, exactSvmTerms, common);
    const inner = decoded.payload.payload;
    if (!("transaction" in inner))
      throw new PaymentRejected("invalid_payload", "A Solana payment carries the payer's signed transaction");
    // Loaded with the first Solana payment: a service without a Solana option never loads @solana/kit here.
    const { bindSvmTransaction } = await import("./bind.ts");
    return bindSvmTransaction(inner.transaction, matched, nowSeconds);
  },
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
