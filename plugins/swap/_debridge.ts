import * as v from "valibot";
import { isNative, zeroAddress } from "./_chains.ts";
import {
  AddressShape,
  bpsAsPercent,
  decimalWei,
  feeOf,
  HexShape,
  sameChain,
  Units,
  usd,
  Wei,
  type Adapter,
} from "./_route.ts";

/** What the code reads of deBridge's create-tx answer. */
const DlnToken = v.object({ amount: Units, approximateUsdValue: v.optional(v.number()) });
const DlnOrder = v.object({
  estimation: v.object({ srcChainTokenIn: DlnToken, dstChainTokenOut: DlnToken }),
  tx: v.object({ to: AddressShape, data: HexShape, value: Wei }),
  order: v.object({ approximateFulfillmentDelay: v.number() }),
  orderId: v.string(),
  fixFee: Wei,
  protocolFee: v.optional(Units),
  protocolFeeApproximateUsdValue: v.optional(v.number()),
});

/**
 * deBridge DLN `GET /dln/order/create-tx`: cross-chain only; the affiliate fee is a PERCENT (0.1 is 10 bps),
 * paid on the source chain. Operating expenses are not prepended, so the input stays exactly `amount` like
 * the other routes; the fixed fee is native coin added to tx.value, outside the amounts.
 */
export const debridge: Adapter = {
  name: "debridge",
  upstream: "debridge",
  serves: (req) => !sameChain(req),
  async quote(api, req) {
    const withFee = req.feeBps > 0 && req.feeRecipient !== undefined;
    const order = await api.json("/dln/order/create-tx", DlnOrder, {
      query: {
        srcChainId: req.fromChain,
        srcChainTokenIn: req.fromToken,
        srcChainTokenInAmount: req.amount,
        dstChainId: req.toChain,
        dstChainTokenOut: req.toToken,
        dstChainTokenOutAmount: "auto",
        dstChainTokenOutRecipient: req.recipient,
        srcChainOrderAuthorityAddress: req.depositor,
        dstChainOrderAuthorityAddress: req.recipient,
        senderAddress: req.depositor,
        prependOperatingExpenses: false,
        affiliateFeePercent: withFee ? bpsAsPercent(req.feeBps) : undefined,
        affiliateFeeRecipient: withFee ? req.feeRecipient : undefined,
        referralCode: req.debridgeReferralCode,
      },
    });
    const { srcChainTokenIn: given, dstChainTokenOut: taken } = order.estimation;
    const fixFee = decimalWei(order.fixFee);
    return {
      source: "debridge",
      amountIn: given.amount,
      amountOut: taken.amount,
      // A DLN order's take amount is fixed when it is placed: what is quoted is what is filled.
      minAmountOut: taken.amount,
      estimatedFillTimeSeconds: order.order.approximateFulfillmentDelay,
      transaction: { chainId: req.fromChain, to: order.tx.to, data: order.tx.data, value: decimalWei(order.tx.value) },
      approval: isNative(req.fromToken)
        ? undefined
        : { token: req.fromToken, spender: order.tx.to, amount: given.amount, resetFirst: false },
      aggregatorFee: {
        total: order.protocolFee ?? "0",
        token: req.fromToken,
        totalUsd: usd(order.protocolFeeApproximateUsdValue) ?? 0,
      },
      integratorFee: withFee ? { amount: feeOf(given.amount, req.feeBps), token: req.fromToken } : undefined,
      amountInUsd: usd(given.approximateUsdValue),
      amountOutUsd: usd(taken.approximateUsdValue),
      extraCosts:
        fixFee === "0"
          ? []
          : [{ label: "deBridge fixed fee in the transaction value", amount: fixFee, token: zeroAddress }],
      notes: [
        `deBridge order ${order.orderId}; fixed fee ${fixFee} wei of native coin is included in the transaction value`,
      ],
    };
  },
};
