import type { Address, Hex } from "viem";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { chainOf, eeeeAddress, isNative } from "./_chains.ts";
import { decimalWei, feeOf, sameChain, usd, type Adapter } from "./_route.ts";

interface KyberEnvelope<T> {
  code: number;
  message: string;
  data: T;
}
interface RouteSummary {
  tokenIn: string;
  amountIn: string;
  amountInUsd?: string;
  tokenOut: string;
  amountOut: string;
  amountOutUsd?: string;
  extraFee?: { feeAmount: string; feeAmountUsd?: string };
}
interface Built {
  amountIn: string;
  amountOut: string;
  data: Hex;
  routerAddress: Address;
  transactionValue: string;
}

const kyberToken = (token: Address) => (isNative(token) ? eeeeAddress : token);

/**
 * KyberSwap Aggregator: same-chain only, two calls (routes, then build with the route summary verbatim).
 * The fee is in bps (`isInBps=true`) taken from the input, so amountOut is already net of it.
 */
export const kyberswap: Adapter = {
  name: "kyberswap",
  upstream: "kyberswap",
  serves: (req) => sameChain(req) && chainOf(req.fromChain) !== undefined,
  async quote(api, req) {
    const chain = chainOf(req.fromChain);
    const withFee = req.feeBps > 0 && req.feeRecipient !== undefined;
    const routes = await api.json<KyberEnvelope<{ routeSummary: RouteSummary; routerAddress: Address }>>(`/${chain.kyber}/api/v1/routes`, {
      query: {
        tokenIn: kyberToken(req.fromToken),
        tokenOut: kyberToken(req.toToken),
        amountIn: req.amount,
        gasInclude: true,
        ...(withFee ? { feeAmount: req.feeBps, isInBps: true, chargeFeeBy: "currency_in", feeReceiver: req.feeRecipient } : {}),
      },
    });
    if (routes.code !== 0 || !routes.data?.routeSummary) throw upstreamFailed("kyberswap", `kyberswap found no route: ${routes.message}`);
    const summary = routes.data.routeSummary;
    const built = await api.json<KyberEnvelope<Built>>(`/${chain.kyber}/api/v1/route/build`, {
      method: "POST",
      body: { routeSummary: summary, sender: req.depositor, recipient: req.recipient, slippageTolerance: req.slippageBps, source: "x402-agent-services" },
    });
    if (built.code !== 0 || !built.data?.data) throw upstreamFailed("kyberswap", `kyberswap could not build the route: ${built.message}`);
    const tx = built.data;
    return {
      source: "kyberswap",
      amountIn: tx.amountIn,
      amountOut: tx.amountOut,
      minAmountOut: ((BigInt(tx.amountOut) * BigInt(10_000 - req.slippageBps)) / 10_000n).toString(),
      estimatedFillTimeSeconds: chain.blockSeconds,
      transaction: { chainId: req.fromChain, to: tx.routerAddress, data: tx.data, value: decimalWei(tx.transactionValue) },
      approval: isNative(req.fromToken) ? undefined : { token: req.fromToken, spender: tx.routerAddress, amount: tx.amountIn },
      aggregatorFee: { total: "0", token: req.fromToken, totalUsd: 0 },
      integratorFee: withFee ? { amount: feeOf(tx.amountIn, req.feeBps), token: req.fromToken, amountUsd: usd(summary.extraFee?.feeAmountUsd) } : undefined,
      amountInUsd: usd(summary.amountInUsd),
      amountOutUsd: usd(summary.amountOutUsd),
      notes: ["KyberSwap routes expire in about 30 seconds"],
    };
  },
};
