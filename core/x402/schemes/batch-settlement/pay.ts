import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/client";
import { createPublicClient, http, parseAbi, type LocalAccount } from "viem";

const channelsAbi = parseAbi(["function channels(bytes32) view returns (uint128 balance, uint128 totalClaimed)"]);

/**
 * Pays `calls` calls of one route with batch-settlement vouchers (the first one deposits), then prints the
 * channel as the service reports it and as the escrow contract holds it.
 */
export async function payWithVouchers(o: {
  url: URL;
  init: RequestInit;
  account: LocalAccount;
  rpcUrl: string;
  calls: number;
}) {
  const reader = createPublicClient({ transport: http(o.rpcUrl) });
  const client = new x402Client().register(
    "eip155:*",
    new BatchSettlementEvmScheme(toClientEvmSigner(o.account, reader)),
  );
  client.setSpendControls(false);
  client.registerPolicy((_version, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  const pay = wrapFetchWithPayment(fetch, client);

  let answered = 0;
  let receipt: ReturnType<typeof decodePaymentResponseHeader> | undefined;
  const started = performance.now();
  for (let i = 0; i < o.calls; i++) {
    const res = await pay(o.url, o.init);
    await res.body?.cancel();
    const header = res.headers.get("payment-response");
    if (res.ok) answered++;
    if (header) receipt = decodePaymentResponseHeader(header);
    if (!res.ok) console.log(`call ${i + 1}: HTTP ${res.status}`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`${answered}/${o.calls} calls answered in ${seconds.toFixed(2)} s`);
  const state = (receipt?.extra as { channelState?: { channelId?: `0x${string}` } } | undefined)?.channelState;
  console.log("channel (service):", state ?? "none");
  if (state?.channelId) {
    const [balance, totalClaimed] = await reader.readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: channelsAbi,
      functionName: "channels",
      args: [state.channelId],
    });
    console.log("channel (on-chain):", { balance: String(balance), totalClaimed: String(totalClaimed) });
  }
  return answered === o.calls;
}
