import * as v from "valibot";
import { upstreamFailed, checkUpstream } from "../../core/runtime/errors.ts";
import { approvalOfCalls } from "./_approval.ts";
import { isNative } from "./_chains.ts";
import {
  AddressShape,
  bpsAsFraction,
  decimalWei,
  HexShape,
  sameChain,
  Units,
  usd,
  Usd,
  Wei,
  type Adapter,
} from "./_route.ts";

/** What the code reads of Across's swap/approval answer. */
const AcrossAmount = v.object({ amount: Units, amountUsd: Usd, token: v.object({ address: AddressShape }) });
/** A sendable transaction; Across answers an EIP-712 message to sign instead (`data` an object) when it picks a permit route. */
const SwapTx = v.object({ chainId: v.number(), to: AddressShape, data: HexShape, value: v.optional(Wei) });
const AcrossSwap = v.object({
  approvalTxns: v.optional(v.array(v.object({ to: AddressShape, data: HexShape }))),
  inputAmount: Units,
  expectedOutputAmount: Units,
  minOutputAmount: Units,
  expectedFillTime: v.number(),
  fees: v.object({
    total: v.object({ ...AcrossAmount.entries, details: v.optional(v.object({ app: v.optional(AcrossAmount) })) }),
  }),
  swapTx: v.looseObject({ ecosystem: v.optional(v.string()), data: v.unknown() }),
});

/**
 * Across Swap API `GET /swap/approval`: cross-chain only; app fee as a fraction taken in the output token. The key
 * goes as `Authorization: Bearer` (the upstream table) and the integrator id as `integratorId`.
 */
export const across: Adapter = {
  name: "across",
  upstream: "across",
  serves: (req) => !sameChain(req),
  async quote(api, req) {
    const withFee = req.feeBps > 0 && req.feeRecipient !== undefined;
    const swap = await api.json("/swap/approval", AcrossSwap, {
      query: {
        tradeType: "exactInput",
        amount: req.amount,
        inputToken: req.fromToken,
        outputToken: req.toToken,
        originChainId: req.fromChain,
        destinationChainId: req.toChain,
        depositor: req.depositor,
        recipient: req.recipient,
        slippage: bpsAsFraction(req.slippageBps),
        appFee: withFee ? bpsAsFraction(req.feeBps) : undefined,
        appFeeRecipient: withFee ? req.feeRecipient : undefined,
        integratorId: req.acrossIntegratorId,
      },
    });
    if (typeof swap.swapTx.data !== "string")
      throw upstreamFailed(
        "across",
        `across answered a signature to collect (${swap.swapTx.ecosystem ?? "permit"}) instead of a transaction; this service returns transactions only`,
      );
    const tx = checkUpstream("across", SwapTx, swap.swapTx);
    const { total } = swap.fees;
    const app = total.details?.app;
    const appInTotal = app && app.token.address.toLowerCase() === total.token.address.toLowerCase();
    return {
      source: "across",
      amountIn: swap.inputAmount,
      amountOut: swap.expectedOutputAmount,
      minAmountOut: swap.minOutputAmount,
      estimatedFillTimeSeconds: swap.expectedFillTime,
      transaction: { chainId: tx.chainId, to: tx.to, data: tx.data, value: decimalWei(tx.value) },
      approval: isNative(req.fromToken) ? undefined : approvalOfCalls("across", swap.approvalTxns ?? []),
      aggregatorFee: {
        total: (BigInt(total.amount) - (appInTotal ? BigInt(app.amount) : 0n)).toString(),
        token: total.token.address,
        totalUsd: (usd(total.amountUsd) ?? 0) - (appInTotal ? (usd(app.amountUsd) ?? 0) : 0),
      },
      integratorFee: app ? { amount: app.amount, token: app.token.address, amountUsd: usd(app.amountUsd) } : undefined,
      extraCosts: [],
      notes: [],
    };
  },
};
