import * as v from "valibot";
import { decodeFunctionData, erc20Abi, type Address } from "viem";
import { upstreamFailed, upstreamInvalid } from "../../core/runtime/errors.ts";
import { AddressShape, decimalWei, HexShape, Units, usd, Usd, Wei, type Adapter, type Approval } from "./_route.ts";

const o = v.optional;
/** What the code reads of Relay's quote: transaction steps carry calls; signature steps are not read. */
const RelayAmount = v.object({
  currency: v.object({ address: v.string() }),
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
  fees: v.object({ relayer: o(RelayAmount), app: o(RelayAmount) }),
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
    const main = transactions.filter((s) => s.id !== "approve").at(-1);
    if (!main) throw upstreamFailed("relay", "relay answered without a transaction step");
    const tx = main.items[0].data;
    const { relayer, app } = answer.fees;
    const { currencyIn, currencyOut } = answer.details;
    return {
      source: "relay",
      amountIn: currencyIn.amount,
      amountOut: currencyOut.amount,
      minAmountOut: currencyOut.minimumAmount ?? currencyOut.amount,
      estimatedFillTimeSeconds: answer.details.timeEstimate,
      transaction: { chainId: tx.chainId, to: tx.to, data: tx.data, value: decimalWei(tx.value) },
      approval: approvalOf(transactions.find((s) => s.id === "approve")),
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
      notes: transactions.length > 1 ? ["Relay: send the approve transaction before the swap"] : [],
    };
  },
};

function approvalOf(step: TransactionStep | undefined): Approval | undefined {
  const tx = step?.items[0]?.data;
  if (!tx) return undefined;
  let call: ReturnType<typeof decodeFunctionData<typeof erc20Abi>>;
  try {
    call = decodeFunctionData({ abi: erc20Abi, data: tx.data });
  } catch {
    throw upstreamInvalid("relay", ["steps.approve: not an ERC-20 call"]);
  }
  if (call.functionName !== "approve") return undefined;
  const [spender, amount] = call.args as readonly [Address, bigint];
  return { token: tx.to, spender, amount: amount.toString() };
}
