import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import { familyOf, networkOfV1Name } from "../../../../core/x402/requirements.ts";
import { challengeOf, httpSend } from "./transport.ts";
import { batchOf, item } from "./way.ts";
import type { World } from "./world.ts";

/** `eip155 6`, `solana`: a network's family, and for EVM the option's decimals, read off an amount of a known price. */
function familyKey(network: string, amount: string, priceUsdc: bigint) {
  const family = familyOf(network) === "evm" ? "eip155" : "solana";
  if (family === "solana") return family;
  return `${family} ${6 + Math.round(Math.log10(Number(BigInt(amount)) / Number(priceUsdc)))}`;
}

/**
 * Every way to pay the service under test offers, as it offers it: each scheme of its 402s (a plain route's and
 * the pay-as-used batch's, v2 and v1), credit codes, the MCP transport, and the calls made of parts.
 */
export async function offeredWays(w: World): Promise<string[]> {
  const offered = new Set<string>();
  for (const [req, price] of [
    [{ name: "matrix-write", args: { key: "offers" } }, 1000n],
    [batchOf(item("offers")), 50_000n],
  ] as const) {
    const { v2, v1 } = await challengeOf(w.one, req);
    for (const a of v2.accepts) {
      // exact through Permit2 is its own way to pay (upto always is Permit2's).
      const method = a.scheme === "exact" && a.extra?.assetTransferMethod ? ` ${a.extra.assetTransferMethod}` : "";
      offered.add(`v2 ${a.scheme}${method} ${familyKey(a.network, a.amount, price)}`);
    }
    for (const a of v1.accepts)
      offered.add(`v1 ${a.scheme} ${familyKey(networkOfV1Name(a.network)!, a.maxAmountRequired, price)}`);
  }
  // A code the service does not know is refused as a credit (not ignored): it takes credit codes.
  const credit = await httpSend(
    w.one,
    { name: "matrix-write", args: { key: "offers" } },
    {
      "x-credit-code": `cr_${"0".repeat(24)}`,
    },
  );
  if (credit.body?.reason === "credit_insufficient") offered.add("credit");
  const { tools } = await w.one.mcp.listTools();
  if (tools.some((t) => t.name === "call_endpoint")) offered.add("mcp");
  for (const e of w.one.runtime.endpoints) {
    if (e.name === "batch") offered.add("parts: batch");
    if (e.composes?.length) offered.add("parts: bundle");
    // A route whose 402 asks for a sign-in is a way in, though it takes no payment.
    if (
      e.signIn &&
      (await challengeOf(w.one, { name: e.name, args: { key: "offers" } })).v2.extensions?.[SIGN_IN_WITH_X]
    )
      offered.add("sign-in");
  }
  return [...offered].sort();
}
