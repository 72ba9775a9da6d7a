import type { Address, Hex } from "viem";
import { isNative } from "./_chains.ts";
import { bpsAsFraction, decimalWei, feeOf, sumUsd, usd, type Adapter } from "./_route.ts";

interface LifiCost {
  name: string;
  token: { address: string };
  amount: string;
  amountUSD?: string;
  included: boolean;
}
interface LifiStep {
  tool: string;
  estimate: {
    fromAmount: string;
    toAmount: string;
    toAmountMin: string;
    approvalAddress: Address;
    executionDuration: number;
    fromAmountUSD?: string;
    toAmountUSD?: string;
    feeCosts?: LifiCost[];
  };
  transactionRequest: { to: Address; data: Hex; value: string; chainId: number };
}

const isIntegratorFee = (cost: LifiCost) => /integrator/i.test(cost.name);

/** LI.FI `GET /quote`: cross-chain and same-chain; integrator fee as a fraction (`fee=0.001` is 10 bps). */
export const lifi: Adapter = {
  name: "lifi",
  upstream: "lifi",
  serves: () => true,
  async quote(api, req) {
    const withFee = req.feeBps > 0 && req.feeRecipient !== undefined;
    const step = await api.json<LifiStep>("/quote", {
      query: {
        fromChain: req.fromChain,
        toChain: req.toChain,
        fromToken: req.fromToken,
        toToken: req.toToken,
        fromAmount: req.amount,
        fromAddress: req.depositor,
        toAddress: req.recipient,
        slippage: bpsAsFraction(req.slippageBps),
        integrator: req.lifiIntegrator,
        fee: withFee ? bpsAsFraction(req.feeBps) : undefined,
      },
    });
    const { estimate, transactionRequest: tx } = step;
    const costs = estimate.feeCosts ?? [];
    const own = costs.filter((c) => !isIntegratorFee(c));
    const integrator = costs.find(isIntegratorFee);
    return {
      source: "lifi",
      amountIn: estimate.fromAmount,
      amountOut: estimate.toAmount,
      minAmountOut: estimate.toAmountMin,
      estimatedFillTimeSeconds: estimate.executionDuration,
      transaction: { chainId: tx.chainId, to: tx.to, data: tx.data, value: decimalWei(tx.value) },
      approval: isNative(req.fromToken) ? undefined : { token: req.fromToken, spender: estimate.approvalAddress, amount: estimate.fromAmount },
      aggregatorFee: {
        total: own.filter((c) => c.token.address.toLowerCase() === req.fromToken.toLowerCase()).reduce((a, c) => a + BigInt(c.amount), 0n).toString(),
        token: req.fromToken,
        totalUsd: sumUsd(own.map((c) => usd(c.amountUSD))),
      },
      integratorFee: withFee
        ? integrator
          ? { amount: integrator.amount, token: integrator.token.address, amountUsd: usd(integrator.amountUSD) }
          : { amount: feeOf(estimate.fromAmount, req.feeBps), token: req.fromToken }
        : undefined,
      amountInUsd: usd(estimate.fromAmountUSD),
      amountOutUsd: usd(estimate.toAmountUSD),
      extraCostUsd: sumUsd(costs.filter((c) => !c.included).map((c) => usd(c.amountUSD))),
      notes: [`LI.FI routes through ${step.tool}`],
    };
  },
};
