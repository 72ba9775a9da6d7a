import * as v from "valibot";
import type { Address } from "viem";
import { upstreamFailed, checkUpstream } from "../../core/runtime/errors.ts";
import { chainOf, eeeeAddress, isNative } from "./_chains.ts";
import { AddressShape, decimalWei, feeOf, HexShape, sameChain, Units, usd, Usd, Wei, type Adapter } from "./_route.ts";

/**
 * What the code reads of KyberSwap's envelopes. `data` is checked once `code` is 0; the route summary is sent back to
 * build verbatim, so every field of it is kept.
 */
const Envelope = v.object({ code: v.number(), message: v.string(), data: v.unknown() });
const RouteSummary = v.looseObject({
  amountIn: Units,
  amountInUsd: Usd,
  amountOut: Units,
  amountOutUsd: Usd,
  extraFee: v.optional(v.looseObject({ feeAmountUsd: Usd })),
});
const Routes = v.object({ routeSummary: RouteSummary });
const Built = v.object({
  amountIn: Units,
  amountOut: Units,
  data: HexShape,
  routerAddress: AddressShape,
  transactionValue: Wei,
});

/** KyberSwap refuses a slippageTolerance outside 0-2000 bps. */
const maxSlippageBps = 2000;

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
    const slippage = Math.min(req.slippageBps, maxSlippageBps);
    const routes = await api.json(`/${chain.kyber}/api/v1/routes`, Envelope, {
      query: {
        tokenIn: kyberToken(req.fromToken),
        tokenOut: kyberToken(req.toToken),
        amountIn: req.amount,
        gasInclude: true,
        ...(withFee
          ? { feeAmount: req.feeBps, isInBps: true, chargeFeeBy: "currency_in", feeReceiver: req.feeRecipient }
          : {}),
      },
    });
    if (routes.code !== 0 || !routes.data)
      throw upstreamFailed("kyberswap", `kyberswap found no route: ${routes.message}`);
    const summary = checkUpstream("kyberswap", Routes, routes.data).routeSummary;
    const answer = await api.json(`/${chain.kyber}/api/v1/route/build`, Envelope, {
      method: "POST",
      body: {
        routeSummary: summary,
        sender: req.depositor,
        recipient: req.recipient,
        slippageTolerance: slippage,
        source: "x402-agent-services",
      },
    });
    if (answer.code !== 0 || !answer.data)
      throw upstreamFailed("kyberswap", `kyberswap could not build the route: ${answer.message}`);
    const tx = checkUpstream("kyberswap", Built, answer.data);
    return {
      source: "kyberswap",
      amountIn: tx.amountIn,
      amountOut: tx.amountOut,
      minAmountOut: ((BigInt(tx.amountOut) * BigInt(10_000 - slippage)) / 10_000n).toString(),
      estimatedFillTimeSeconds: chain.blockSeconds,
      transaction: {
        chainId: req.fromChain,
        to: tx.routerAddress,
        data: tx.data,
        value: decimalWei(tx.transactionValue),
      },
      approval: isNative(req.fromToken)
        ? undefined
        : { token: req.fromToken, spender: tx.routerAddress, amount: tx.amountIn, resetFirst: false },
      aggregatorFee: { total: "0", token: req.fromToken, totalUsd: 0 },
      integratorFee: withFee
        ? {
            amount: feeOf(tx.amountIn, req.feeBps),
            token: req.fromToken,
            amountUsd: usd(summary.extraFee?.feeAmountUsd),
          }
        : undefined,
      amountInUsd: usd(summary.amountInUsd),
      amountOutUsd: usd(summary.amountOutUsd),
      extraCosts: [],
      notes: ["KyberSwap routes expire in about 30 seconds"],
    };
  },
};
