import { decodeFunctionData, erc20Abi, type Address, type Hex } from "viem";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { decimalWei, usd, type Adapter, type Approval } from "./_route.ts";

interface RelayAmount {
  currency: { chainId: number; address: string; symbol: string; decimals: number };
  amount: string;
  amountUsd?: string;
  minimumAmount?: string;
}
interface RelayStep {
  id: string;
  kind: "transaction" | "signature";
  items: { status: string; data: { to: Address; data: Hex; value?: string; chainId: number } }[];
}
interface RelayQuote {
  steps: RelayStep[];
  fees: { relayer?: RelayAmount; app?: RelayAmount };
  details: { currencyIn: RelayAmount; currencyOut: RelayAmount; timeEstimate: number };
}

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
      ...(req.feeBps > 0 && req.feeRecipient ? { appFees: [{ recipient: req.feeRecipient, fee: String(req.feeBps) }] } : {}),
    };
    const answer = await api.json<RelayQuote>("/quote/v2", { method: "POST", body });
    const transactions = answer.steps.filter((s) => s.kind === "transaction" && s.items.length > 0);
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
      aggregatorFee: { total: relayer?.amount ?? "0", token: relayer?.currency.address ?? req.fromToken, totalUsd: usd(relayer?.amountUsd) ?? 0 },
      integratorFee: app ? { amount: app.amount, token: app.currency.address, amountUsd: usd(app.amountUsd) } : undefined,
      amountInUsd: usd(currencyIn.amountUsd),
      amountOutUsd: usd(currencyOut.amountUsd),
      notes: transactions.length > 1 ? ["Relay: send the approve transaction before the swap"] : [],
    };
  },
};

function approvalOf(step: RelayStep | undefined): Approval | undefined {
  const tx = step?.items[0]?.data;
  if (!tx) return undefined;
  const call = decodeFunctionData({ abi: erc20Abi, data: tx.data });
  if (call.functionName !== "approve") return undefined;
  const [spender, amount] = call.args as readonly [Address, bigint];
  return { token: tx.to, spender, amount: amount.toString() };
}
