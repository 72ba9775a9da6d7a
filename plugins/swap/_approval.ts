import { decodeFunctionData, erc20Abi, type Address, type Hex } from "viem";
import { upstreamInvalid } from "../../core/runtime/errors.ts";
import type { Approval } from "./_route.ts";

/**
 * The allowance an aggregator's approval transactions grant, read from their calldata: one approve, or a reset to 0
 * followed by the amount (tokens such as USDT refuse to change a non-zero allowance). Anything else is refused
 * rather than guessed, since the wallet would otherwise send an approve that does not enable the swap.
 */
export function approvalOfCalls(source: string, calls: readonly { to: Address; data: Hex }[]): Approval | undefined {
  if (calls.length === 0) return undefined;
  const approves = calls.map((call, i) => {
    try {
      const decoded = decodeFunctionData({ abi: erc20Abi, data: call.data });
      if (decoded.functionName !== "approve") throw new Error(decoded.functionName);
      const [spender, amount] = decoded.args as readonly [Address, bigint];
      return { token: call.to.toLowerCase(), spender: spender.toLowerCase(), amount, to: call.to, rawSpender: spender };
    } catch {
      throw upstreamInvalid(source, [`approval ${i}: not an ERC-20 approve call`]);
    }
  });
  const last = approves.at(-1)!;
  const others = approves.slice(0, -1);
  const isReset = others.every((a) => a.amount === 0n && a.token === last.token && a.spender === last.spender);
  if (!isReset || others.length > 1) throw upstreamInvalid(source, ["approvals: more than a reset and one approve"]);
  return { token: last.to, spender: last.rawSpender, amount: last.amount.toString(), resetFirst: others.length === 1 };
}
