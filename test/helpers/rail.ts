import pino from "pino";
import { createPublicClient, createWalletClient, http, parseAbiItem, type Address, type Hex } from "viem";
import { privateKeyToAccount, type LocalAccount } from "viem/accounts";
import { createRedisStore } from "../../core/runtime/redis-store.ts";
import { devnetChain, testUsdcAbi } from "../../core/x402/devnet/index.ts";
import { createLocalFacilitator } from "../../core/x402/facilitator.ts";
import type { Facilitator } from "../../core/x402/facilitator-api.ts";
import { startPaidService, type Devnet } from "./paid.ts";
import { probePlugin } from "./probe-plugin.ts";
import { challengeOf, signAuthorization, v2Header } from "./sign.ts";

export type Paid = Awaited<ReturnType<typeof startPaidService>>;

const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
export const probeUrl = (echo = "") => `http://127.0.0.1:4021/v1/probe?echo=${echo}`;

/** The token's Transfer events to `to` (from `from`, when given) since `fromBlock`: what moved on-chain. */
export async function transfersTo(devnet: Devnet, to: Address, fromBlock: bigint, from?: Address) {
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  if ((await client.getBlockNumber()) < fromBlock) return { count: 0, value: 0n };
  const logs = await client.getLogs({
    address: devnet.usdc.address,
    event: transferEvent,
    args: { to, ...(from ? { from } : {}) },
    fromBlock,
    toBlock: "latest",
  });
  return { count: logs.length, value: logs.reduce((sum, log) => sum + log.args.value!, 0n) };
}

export const blockNow = (devnet: Devnet) => createPublicClient({ transport: http(devnet.rpcUrl) }).getBlockNumber();

/** A paid call of the probe, signed by `account` against the challenge of the instance it is sent to. */
export async function payProbe(service: Paid, account: LocalAccount, echo = "") {
  const required = await challengeOf(service.fetch, probeUrl(echo));
  const { header, payload } = await v2Header(account, required);
  const res = await service.fetch(probeUrl(echo), { headers: { "payment-signature": header } });
  return { res, body: await res.json(), authorization: payload.authorization, header };
}

export interface InstanceOptions {
  /** A Redis shared with other instances; the memory store without it. */
  redisUrl?: string;
  /** Where this instance's facilitator reaches the chain (a proxy in front of the devnet, say). */
  rpcUrl?: string;
  confirmationTimeoutMs?: number;
  /** How long a settlement may stay unmined before the relayer sends it again or replaces it. */
  replaceAfterMs?: number;
  /** Wraps the facilitator this instance settles with. */
  facilitator?: (local: Facilitator) => Facilitator;
}

/** A paid service instance (on its own connection to a shared Redis, if given), settling with the devnet's relayer key. */
export async function startInstance(devnet: Devnet, options: InstanceOptions = {}) {
  const redis = options.redisUrl ? await createRedisStore(options.redisUrl, pino({ level: "silent" })) : undefined;
  const local = createLocalFacilitator({
    rpcUrl: options.rpcUrl ?? devnet.rpcUrl,
    chainId: devnet.chainId,
    relayerKey: devnet.accounts.relayer.privateKey,
    confirmationTimeoutMs: options.confirmationTimeoutMs,
    replaceAfterMs: options.replaceAfterMs,
  });
  const facilitator = options.facilitator ? options.facilitator(local) : local;
  const service = await startPaidService(devnet, {
    plugins: [probePlugin],
    store: redis,
    facilitator: () => facilitator,
  });
  return {
    ...service,
    async close() {
      await service.close();
      await redis?.close();
    },
  };
}

export const accountOf = (devnet: Devnet, index: number) =>
  privateKeyToAccount(devnet.accounts.others[index].privateKey);

const cancelTypes = {
  CancelAuthorization: [
    { name: "authorizer", type: "address" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** The payer's own transaction on the token; returns once it is mined. */
async function asPayer(
  devnet: Devnet,
  account: LocalAccount,
  functionName: "cancelAuthorization" | "transferWithAuthorization",
  args: readonly unknown[],
) {
  const chain = devnetChain(devnet.rpcUrl, devnet.chainId);
  const wallet = createWalletClient({ account, chain, transport: http(devnet.rpcUrl) });
  const hash = await wallet.writeContract({
    address: devnet.usdc.address,
    abi: testUsdcAbi,
    functionName,
    args,
  } as any);
  const receipt = await createPublicClient({ chain, transport: http(devnet.rpcUrl) }).waitForTransactionReceipt({
    hash,
    pollingInterval: 50,
  });
  if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
}

/** EIP-3009 cancelAuthorization, signed and sent by the payer: the nonce is spent, no money moves. */
export async function cancelOnChain(devnet: Devnet, account: LocalAccount, nonce: Hex) {
  const domain = {
    name: devnet.usdc.name,
    version: devnet.usdc.version,
    chainId: devnet.chainId,
    verifyingContract: devnet.usdc.address,
  };
  const signature = await account.signTypedData({
    domain,
    types: cancelTypes,
    primaryType: "CancelAuthorization",
    message: { authorizer: account.address, nonce },
  });
  await asPayer(devnet, account, "cancelAuthorization", [account.address, nonce, signature]);
}

/** The payer spends the nonce on another transfer of its own (`value` to `to`), sent by itself. */
export async function spendNonceElsewhere(
  devnet: Devnet,
  account: LocalAccount,
  nonce: Hex,
  to: Address,
  value: bigint,
) {
  const requirements = {
    network: devnet.network,
    asset: devnet.usdc.address,
    payTo: to,
    amount: String(value),
    maxTimeoutSeconds: 300,
    extra: { name: devnet.usdc.name, version: devnet.usdc.version },
  };
  const { authorization: a, signature } = await signAuthorization(account, requirements, { nonce });
  await asPayer(devnet, account, "transferWithAuthorization", [
    a.from,
    a.to,
    BigInt(a.value),
    BigInt(a.validAfter),
    BigInt(a.validBefore),
    a.nonce,
    signature,
  ]);
}
