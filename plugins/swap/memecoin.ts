import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { disclaimer } from "./_answer.ts";
import { zeroAddress } from "./_chains.ts";
import { jupiterTrade, solMint } from "./_jupiter.ts";
import { raceUpstreams } from "./_race.ts";
import { Alternatives, Approval, BaseUnits, Transaction } from "./_schemas.ts";
import { runSwap, swapRequest } from "./_swap.ts";
import { memecoinExample } from "./_examples.ts";
import { swapSettings } from "./_settings.ts";

const evmChains = {
  ethereum: 1,
  optimism: 10,
  bsc: 56,
  polygon: 137,
  base: 8453,
  arbitrum: 42161,
  avalanche: 43114,
} as const;
const solanaKey = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const evmAddress = /^0x[0-9a-fA-F]{40}$/;
/** KyberSwap's slippageTolerance range ends at 2000 bps; the whole EVM race uses the same tolerance. */
const evmMaxSlippageBps = 2000;
const Units = (what: string) => v.optional(v.pipe(BaseUnits, v.description(what)));

export default defineEndpoint({
  name: "memecoin",
  method: "GET",
  price: "$0.03",
  summary:
    "Buy or sell a memecoin: an unsigned Jupiter transaction on Solana, or the best same-chain aggregator route on EVM chains",
  description:
    "Buying spends the native coin (amountLamports on Solana, amountWei on EVM, or amount); selling spends `amount` of the token. " +
    "Solana goes through Jupiter (graduated pump.fun, PumpSwap, Raydium, Meteora pools); EVM chains race Relay, LI.FI and KyberSwap. " +
    "Selling an ERC-20 needs the approval the answer names. Memecoins are volatile and may be scams: check the token before you sign.",
  input: v.object({
    address: v.pipe(
      v.string(),
      v.maxLength(64),
      v.regex(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/, "must be a token mint or 0x address"),
      v.description("The memecoin: a Solana mint or an EVM token address"),
    ),
    chain: v.optional(
      v.pipe(
        v.picklist(["solana", ...Object.keys(evmChains)] as ["solana", ...(keyof typeof evmChains)[]]),
        v.description("solana or an EVM chain name"),
      ),
      "solana",
    ),
    side: v.optional(
      v.pipe(v.picklist(["buy", "sell"]), v.description("buy spends the native coin, sell spends the token")),
      "buy",
    ),
    user: v.pipe(
      v.string(),
      v.maxLength(64),
      v.regex(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/, "must be a Solana public key or 0x address"),
      v.description("Wallet that signs: a Solana public key or a 0x address"),
    ),
    recipient: v.optional(
      v.pipe(
        v.string(),
        v.regex(evmAddress, "must be a 0x address"),
        v.description("EVM only: who receives the output; defaults to user"),
      ),
    ),
    amount: Units("Base units to spend: the native coin when buying, the token when selling"),
    amountLamports: Units("Solana buys: lamports of SOL to spend"),
    amountWei: Units("EVM buys: exact wei of the native coin to spend"),
    feeBps: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(300),
        v.description("Service fee in basis points, 0-300"),
      ),
      100,
    ),
    slippageBps: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(5000),
        v.description(
          "Slippage tolerance in basis points, 0-5000 on Solana; EVM chains apply at most 2000 (KyberSwap's limit)",
        ),
      ),
      300,
    ),
  }),
  output: v.object({
    chain: v.string(),
    side: v.picklist(["buy", "sell"]),
    token: v.string(),
    source: v.pipe(v.string(), v.description("jupiter on Solana, else the winning aggregator")),
    amountIn: v.string(),
    amountOut: v.string(),
    minAmountOut: v.string(),
    feeBps: v.pipe(
      v.number(),
      v.description("Fee applied (0 when the service has no fee account or recipient for this trade)"),
    ),
    slippageBps: v.number(),
    solanaTransaction: v.nullable(v.object({ swapTransaction: v.string(), lastValidBlockHeight: v.number() })),
    evmTransaction: v.nullable(Transaction),
    approval: Approval,
    alternatives: Alternatives,
    disclaimer: v.string(),
  }),
  example: memecoinExample,
  upstreams: [...raceUpstreams, "defillama-coins"],
  optionalUpstreams: ["jupiter"],
  settings: swapSettings,
  async handler(ctx) {
    const { input } = ctx;
    const solana = input.chain === "solana";
    const spend =
      input.side === "buy" ? ((solana ? input.amountLamports : input.amountWei) ?? input.amount) : input.amount;
    const issues = [
      ...(solana !== solanaKey.test(input.address)
        ? [{ field: "address", message: `not a ${solana ? "Solana mint" : "0x token address"}` }]
        : []),
      ...(solana !== solanaKey.test(input.user)
        ? [{ field: "user", message: `not a ${solana ? "Solana public key" : "0x address"}` }]
        : []),
      ...(spend
        ? []
        : [
            {
              field: "amount",
              message:
                input.side === "buy"
                  ? `${solana ? "amountLamports" : "amountWei"} (or amount) is required`
                  : "amount is required to sell",
            },
          ]),
    ];
    if (issues.length) throw badRequest("Invalid input for memecoin", { issues });
    const slippageBps = solana ? input.slippageBps : Math.min(input.slippageBps, evmMaxSlippageBps);
    const common = { chain: input.chain, side: input.side, token: input.address, slippageBps };
    if (solana) {
      const [inputMint, outputMint] = input.side === "buy" ? [solMint, input.address] : [input.address, solMint];
      const trade = await jupiterTrade(
        ctx.upstream("jupiter"),
        {
          inputMint,
          outputMint,
          amount: spend!,
          user: input.user,
          feeBps: input.feeBps,
          slippageBps: input.slippageBps,
        },
        ctx.settings.solanaFeeAccounts,
      );
      return {
        ...common,
        source: "jupiter",
        amountIn: trade.inAmount,
        amountOut: trade.outAmount,
        minAmountOut: trade.minOutAmount,
        feeBps: trade.platformFee.feeBps,
        solanaTransaction: {
          swapTransaction: trade.transaction.swapTransaction,
          lastValidBlockHeight: trade.transaction.lastValidBlockHeight,
        },
        evmTransaction: null,
        approval: null,
        alternatives: [],
        disclaimer,
      };
    }
    const chainId = evmChains[input.chain as keyof typeof evmChains];
    const token = input.address;
    const { routes, alternatives } = await runSwap(
      ctx,
      swapRequest(
        {
          fromChain: chainId,
          toChain: chainId,
          fromToken: input.side === "buy" ? zeroAddress : token,
          toToken: input.side === "buy" ? token : zeroAddress,
          amount: spend!,
          depositor: input.user,
          recipient: input.recipient,
          slippageBps,
        },
        input.feeBps,
        ctx.settings,
      ),
    );
    const best = routes[0];
    return {
      ...common,
      source: best.source,
      amountIn: best.quote.amountIn,
      amountOut: best.quote.amountOut,
      minAmountOut: best.quote.minAmountOut,
      feeBps: best.fees.integrator.feeBps,
      solanaTransaction: null,
      evmTransaction: best.transaction,
      approval: best.approval,
      alternatives,
      disclaimer,
    };
  },
});
