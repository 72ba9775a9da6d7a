import type { Address, Hex } from "viem";
import { isNative } from "./_chains.ts";
import { bpsAsFraction, decimalWei, sameChain, usd, type Adapter } from "./_route.ts";

interface AcrossAmount {
  amount: string;
  amountUsd?: string;
  token: { address: Address; chainId: number; symbol: string; decimals: number };
}
interface AcrossSwap {
  checks: { allowance: { token: Address; spender: Address; actual: string; expected: string } };
  inputAmount: string;
  expectedOutputAmount: string;
  minOutputAmount: string;
  expectedFillTime: number;
  fees: { total: AcrossAmount & { details?: { app?: AcrossAmount } } };
  swapTx: { chainId: number; to: Address; data: Hex; value?: string };
}

/** Across Swap API `GET /swap/approval`: cross-chain only; app fee as a fraction taken in the output token. */
export const across: Adapter = {
  name: "across",
  upstream: "across",
  serves: (req) => !sameChain(req),
  async quote(api, req) {
    const withFee = req.feeBps > 0 && req.feeRecipient !== undefined;
    const swap = await api.json<AcrossSwap>("/swap/approval", {
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
      },
    });
    const { total } = swap.fees;
    const app = total.details?.app;
    const appInTotal = app && app.token.address.toLowerCase() === total.token.address.toLowerCase();
    const allowance = swap.checks.allowance;
    const tx = swap.swapTx;
    return {
      source: "across",
      amountIn: swap.inputAmount,
      amountOut: swap.expectedOutputAmount,
      minAmountOut: swap.minOutputAmount,
      estimatedFillTimeSeconds: swap.expectedFillTime,
      transaction: { chainId: tx.chainId, to: tx.to, data: tx.data, value: decimalWei(tx.value) },
      approval: !isNative(req.fromToken) && BigInt(allowance.actual) < BigInt(allowance.expected)
        ? { token: allowance.token, spender: allowance.spender, amount: allowance.expected }
        : undefined,
      aggregatorFee: {
        total: (BigInt(total.amount) - (appInTotal ? BigInt(app.amount) : 0n)).toString(),
        token: total.token.address,
        totalUsd: (usd(total.amountUsd) ?? 0) - (appInTotal ? usd(app.amountUsd) ?? 0 : 0),
      },
      integratorFee: app ? { amount: app.amount, token: app.token.address, amountUsd: usd(app.amountUsd) } : undefined,
      notes: [],
    };
  },
};
