import * as v from "valibot";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { approvalOfCalls } from "./_approval.ts";
import { isNative } from "./_chains.ts";
import { AddressShape, decimalWei, HexShape, Units, usd, Usd, Wei, type Adapter } from "./_route.ts";

const o = v.optional;
/** What the code reads of Relay's quote: transaction steps carry calls; signature steps are not read. */
const RelayAmount = v.object({
  currency: v.object({ address: v.string(), chainId: o(v.number()) }),
  amount: Units,
  amountUsd: Usd,
  minimumAmount: o(Units),
});
const TransactionStep = v.object({
  id: v.string(),
  kind: v.literal("transaction"),
  items: v.array(
    v.object({ data: v.object({ to: AddressShape, data: HexShape, value: o(Wei), chainId: v.number() }) }),
  ),
});
type TransactionStep = v.InferOutput<typeof TransactionStep>;
const RelayQuote = v.object({
  steps: v.array(v.variant("kind", [TransactionStep, v.object({ id: v.string(), kind: v.literal("signature") })])),
  fees: v.object({ gas: o(RelayAmount), relayer: o(RelayAmount), app: o(RelayAmount) }),
  details: v.object({ currencyIn: RelayAmount, currencyOut: RelayAmount, timeEstimate: v.number() }),
});

/** Relay `POST /quote/v2`: cross-chain and same-chain; app fee in bps strings (`appFees`). */
export const relay: Adapter = {
  name: "relay",
  upstream: "relay",
  serves: () => true,
  async quote(api, req) {
    const body = {
      user: req.depositor,
      recipient: req.recipient,
      originChainId: req.fromChain,
      destinationChainId: req.toChain,
      originCurrency: req.fromToken,
      destinationCurrency: req.toToken,
      amount: req.amount,
      tradeType: "EXACT_INPUT",
      slippageTolerance: String(req.slippageBps),
      referrer: "x402-agent-services",
      ...(req.feeBps > 0 && req.feeRecipient
        ? { appFees: [{ recipient: req.feeRecipient, fee: String(req.feeBps) }] }
        : {}),
    };
    const answer = await api.json("/quote/v2", RelayQuote, { method: "POST", body });
    const transactions = answer.steps.filter(
      (s): s is TransactionStep => s.kind === "transaction" && s.items.length > 0,
    );
    const approvals = transactions.filter(isApprovalStep);
    const main = transactions.filter((s) => !isApprovalStep(s)).at(-1);
    if (!main) throw upstreamFailed("relay", "relay answered without a transaction step");
    if (main.items.length > 1)
      throw upstreamFailed("relay", `relay's ${main.id} step has ${main.items.length} transactions; one is supported`);
    const tx = main.items[0].data;
    const { gas, relayer, app } = answer.fees;
    const { currencyIn, currencyOut } = answer.details;
    return {
      source: "relay",
      amountIn: currencyIn.amount,
      amountOut: currencyOut.amount,
      minAmountOut: currencyOut.minimumAmount ?? currencyOut.amount,
      estimatedFillTimeSeconds: answer.details.timeEstimate,
      transaction: { chainId: tx.chainId, to: tx.to, data: tx.data, value: decimalWei(tx.value) },
      approval: approvalOfCalls(
        "relay",
        approvals.flatMap((s) => s.items.map((item) => item.data)),
      ),
      aggregatorFee: {
        total: relayer?.amount ?? "0",
        token: relayer?.currency.address ?? req.fromToken,
        totalUsd: usd(relayer?.amountUsd) ?? 0,
      },
      integratorFee: app
        ? { amount: app.amount, token: app.currency.address, amountUsd: usd(app.amountUsd) }
        : undefined,
      amountInUsd: usd(currencyIn.amountUsd),
      amountOutUsd: usd(currencyOut.amountUsd),
      extraCosts: [],
      nativeUsd:
        gas && isNative(gas.currency.address) && (gas.currency.chainId ?? req.fromChain) === req.fromChain
          ? unitPrice(gas.amount, usd(gas.amountUsd))
          : undefined,
      notes: approvals.length ? ["Relay: send the approval transaction and wait for its receipt before the swap"] : [],
    };
  },
};

/** Relay names its allowance step `approve` or `approval`, depending on the route. */
const isApprovalStep = (step: TransactionStep) => step.id === "approve" || step.id === "approval";

/** USD per whole native coin from an amount in wei and its USD value. */
function unitPrice(wei: string, amountUsd: number | undefined): number | undefined {
  if (amountUsd === undefined || BigInt(wei) === 0n) return undefined;
  return (amountUsd * 1e18) / Number(wei);
}
