import * as v from "valibot";
import type { Address } from "viem";
import { isNative } from "./_chains.ts";
import {
  AddressShape,
  bpsAsFraction,
  decimalWei,
  feeOf,
  HexShape,
  sumUsd,
  Units,
  usd,
  Usd,
  Wei,
  type Adapter,
} from "./_route.ts";

const o = v.optional;
/** What the code reads of LI.FI's quote (a step). */
const LifiCost = v.object({
  name: v.string(),
  token: v.object({ address: v.string() }),
  amount: Units,
  amountUSD: Usd,
  included: v.boolean(),
});
type LifiCost = v.InferOutput<typeof LifiCost>;
const LifiStep = v.object({
  tool: v.string(),
  estimate: v.object({
    fromAmount: Units,
    toAmount: Units,
    toAmountMin: Units,
    approvalAddress: AddressShape,
    approvalReset: o(v.boolean()),
    executionDuration: v.number(),
    fromAmountUSD: Usd,
    toAmountUSD: Usd,
    feeCosts: o(v.array(LifiCost)),
    gasCosts: o(v.array(v.object({ token: v.object({ address: v.string(), chainId: o(v.number()), priceUSD: Usd }) }))),
  }),
  transactionRequest: v.object({ to: AddressShape, data: HexShape, value: Wei, chainId: v.number() }),
});

const isIntegratorFee = (cost: LifiCost) => /integrator/i.test(cost.name);

/**
 * LI.FI `GET /quote`: cross-chain and same-chain; integrator fee as a fraction (`fee=0.001` is 10 bps). LI.FI pays
 * that fee to the wallet registered for the integrator name at portal.li.fi, whatever the request says, so a fee is
 * asked for only when that wallet is configured (SWAP_LIFI_FEE_WALLET) and the answer names it as the recipient.
 */
export const lifi: Adapter = {
  name: "lifi",
  upstream: "lifi",
  serves: () => true,
  async quote(api, req) {
    const withFee = req.feeBps > 0 && req.lifiFeeWallet !== undefined;
    const step = await api.json("/quote", LifiStep, {
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
      approval: isNative(req.fromToken)
        ? undefined
        : {
            token: req.fromToken,
            spender: estimate.approvalAddress,
            amount: estimate.fromAmount,
            resetFirst: estimate.approvalReset === true,
          },
      aggregatorFee: {
        total: own
          .filter((c) => c.token.address.toLowerCase() === req.fromToken.toLowerCase())
          .reduce((a, c) => a + BigInt(c.amount), 0n)
          .toString(),
        token: req.fromToken,
        totalUsd: sumUsd(own.map((c) => usd(c.amountUSD))),
      },
      integratorFee: withFee
        ? integrator
          ? {
              amount: integrator.amount,
              token: integrator.token.address,
              amountUsd: usd(integrator.amountUSD),
              recipient: req.lifiFeeWallet,
            }
          : { amount: feeOf(estimate.fromAmount, req.feeBps), token: req.fromToken, recipient: req.lifiFeeWallet }
        : undefined,
      amountInUsd: usd(estimate.fromAmountUSD),
      amountOutUsd: usd(estimate.toAmountUSD),
      extraCosts: costs
        .filter((c) => !c.included)
        .map((c) => ({
          label: `LI.FI ${c.name}`,
          amount: c.amount,
          token: c.token.address as Address,
          usd: usd(c.amountUSD),
        })),
      nativeUsd: usd(
        estimate.gasCosts?.find(
          (g) => isNative(g.token.address) && (g.token.chainId ?? req.fromChain) === req.fromChain,
        )?.token.priceUSD,
      ),
      notes: [`LI.FI routes through ${step.tool}`],
    };
  },
};
