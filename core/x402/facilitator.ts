import { x402Facilitator } from "@x402/core/facilitator";
import { HTTPFacilitatorClient } from "@x402/core/http";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/facilitator";
import { UptoEvmScheme } from "@x402/evm/upto/facilitator";
import { toFacilitatorEvmSigner } from "@x402/evm";
import {
  concat,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  nonceManager,
  publicActions,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createDirectEip3009 } from "./schemes/exact-eip3009/direct.ts";
import { evmFundsOf } from "./funds.ts";
import type { Facilitator } from "./facilitator-api.ts";
import { relayerOn, type LocalFacilitatorOptions, type RelayerOn } from "./relayer.ts";

/**
 * @x402/core's own facilitator with the @x402/evm exact, batch-settlement and upto schemes. Without `sender`, the relayer account keeps
 * its nonces locally with viem's nonce manager (one process per key); with it, its transactions go through
 * our relayer, which several instances of one key can share.
 */
export function createX402Facilitator(o: LocalFacilitatorOptions, sender?: RelayerOn): x402Facilitator {
  const account = privateKeyToAccount(o.relayerKey, { nonceManager });
  const chain = defineChain({
    id: o.chainId,
    name: `eip155:${o.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [o.rpcUrl] } },
  });
  const client = createWalletClient({ account, chain, transport: http(o.rpcUrl, { batch: true }) }).extend(
    publicActions,
  );
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (a) => client.readContract({ ...a, args: a.args ?? [] } as any),
      verifyTypedData: (a) => client.verifyTypedData(a as any),
      writeContract: (a) =>
        sender
          ? relay(
              sender,
              a.address,
              concat([
                encodeFunctionData({ ...a, args: a.args ?? [] } as any),
                (a as { dataSuffix?: Hex }).dataSuffix ?? "0x",
              ]),
            )
          : client.writeContract({ ...a, args: a.args ?? [] } as any),
      sendTransaction: (a) => (sender ? relay(sender, a.to, a.data ?? "0x") : client.sendTransaction(a as any)),
      // Through the relayer, which knows the versions that may have replaced the transaction it sent.
      waitForTransactionReceipt: (a) =>
        sender
          ? sender.relayer.receipt(a.hash, a.timeout ?? o.confirmationTimeoutMs ?? 60_000)
          : client.waitForTransactionReceipt({ ...a, pollingInterval: 100 }),
      getCode: (a) => client.getCode(a),
    },
    { confirmationTimeoutMs: o.confirmationTimeoutMs ?? 60_000 },
  );
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: [`eip155:${o.chainId}`] });
  // No authorizer key here: the service signs its own claims and refunds as the channels' receiverAuthorizer.
  facilitator.register([`eip155:${o.chainId}`], new BatchSettlementEvmScheme(signer));
  // The relayer is the one facilitator a payer's upto permit names: the proxy lets only it settle.
  facilitator.register([`eip155:${o.chainId}`], new UptoEvmScheme(signer));
  return facilitator;
}

/** A fifth over the estimate: the state can change between the estimate and the inclusion. */
async function relay({ client, account, relayer }: RelayerOn, to: Hex, data: Hex) {
  const gas = await client.estimateGas({ account, to, data });
  return relayer.send({ to, data, gas: (gas * 6n) / 5n });
}

/**
 * The in-process facilitator, as the gate uses it: EOA-signed EIP-3009 payments directly on the token,
 * anything else through @x402/core's facilitator, both sending through one relayer (one nonce count).
 */
export function createLocalFacilitator(o: LocalFacilitatorOptions): Facilitator {
  const sender = relayerOn(o);
  const facilitator = createX402Facilitator(o, sender);
  const direct = createDirectEip3009(
    o,
    {
      verify: (payload, requirements) => facilitator.verify(payload as any, requirements as any),
      settle: (payload, requirements) => facilitator.settle(payload as any, requirements as any),
    },
    sender,
  );
  return {
    ...direct,
    funds: (payload, requirements) => evmFundsOf(sender.client, payload, requirements),
    backlog: sender.relayer.backlog,
  };
}

/** Any facilitator's /verify and /settle over HTTP; `auth` is sent as the Authorization header. */
export function createRemoteFacilitator(o: { url: string; auth?: string; timeoutMs?: number }): Facilitator {
  const auth = o.auth;
  const client = new HTTPFacilitatorClient({
    url: o.url,
    timeoutMs: o.timeoutMs ?? 60_000,
    ...(auth
      ? {
          createAuthHeaders: async () => ({
            verify: { Authorization: auth },
            settle: { Authorization: auth },
            supported: { Authorization: auth },
          }),
        }
      : {}),
  });
  return {
    verify: (payload, requirements) => client.verify(payload as any, requirements as any),
    settle: (payload, requirements) => client.settle(payload as any, requirements as any),
  };
}

/**
 * One facilitator per network, chosen by the requirements' network (CAIP-2 for v2, the v1 name for v1): each
 * option settles through its own (a local relayer on its chain, or a remote facilitator).
 */
export function createRoutedFacilitator(
  byNetwork: Map<string, Facilitator>,
  caip2Of: (network: string) => string | undefined,
): Facilitator {
  const networkOf = (requirements: object) => String((requirements as { network?: unknown }).network);
  const pick = (network: string) => byNetwork.get(network) ?? byNetwork.get(caip2Of(network) ?? "");
  if (byNetwork.size === 1) return [...byNetwork.values()][0];
  return {
    async verify(payload, requirements) {
      const network = networkOf(requirements);
      return (
        pick(network)?.verify(payload, requirements) ?? {
          isValid: false,
          invalidReason: "invalid_network",
          invalidMessage: `no facilitator for ${network}`,
        }
      );
    },
    async funds(payload, requirements) {
      return pick(networkOf(requirements))?.funds?.(payload, requirements);
    },
    // No facilitator: nothing was sent anywhere, so nothing can move (a certain failure, not an unknown outcome).
    async settle(payload, requirements) {
      const network = networkOf(requirements);
      return (
        pick(network)?.settle(payload, requirements) ?? {
          success: false,
          errorReason: "invalid_network",
          transaction: "",
          network,
        }
      );
    },
  };
}

/** A field of `extra` a remote facilitator gives a scheme on a network in its GET /supported (x402 v2 kinds). */
export async function remoteKindExtra(
  url: string,
  auth: string | undefined,
  scheme: string,
  network: string,
  field: string,
): Promise<string> {
  const res = await fetch(`${url.replace(/\/$/, "")}/supported`, {
    headers: auth ? { authorization: auth } : {},
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`its facilitator's /supported answered ${res.status}`);
  const { kinds = [] } = (await res.json()) as {
    kinds?: Array<{ x402Version?: number; scheme?: string; network?: string; extra?: Record<string, unknown> }>;
  };
  // The network's kinds, by their scheme: the one asked for gives the field.
  const onNetwork = new Map(kinds.filter((k) => k.network === network && k.extra?.[field]).map((k) => [k.scheme, k]));
  const value = onNetwork.get(scheme)?.extra?.[field];
  if (typeof value !== "string")
    throw new Error(`its facilitator does not settle ${scheme} payments on ${network} (no ${field} in /supported)`);
  return value;
}
