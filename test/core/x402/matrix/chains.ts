import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseAbiItem,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount, type LocalAccount } from "viem/accounts";
import type { Address as SolanaAddress } from "@solana/kit";
import { devnetChain, testUsdcAbi } from "../../../../core/x402/devnet/index.ts";
import type { EvmChain } from "../../../../core/x402/devnet/evm-chain.ts";
import type { Devnet, SolanaDevnet } from "../../../helpers/paid.ts";
import type { RpcProxy } from "../../../helpers/rpc-proxy.ts";

const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const total = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);

/** What the cells read and do on one EVM chain: balances, transfers to payTo, the relayer's reverted sends, its clock. */
export type EvmSide = ReturnType<typeof evmSide>;

export function evmSide(chain: Devnet | EvmChain, proxy: RpcProxy, service: { baseUrl: string }) {
  const transport = http(chain.rpcUrl);
  const viemChain = devnetChain(chain.rpcUrl, chain.chainId);
  const reader = createPublicClient({ chain: viemChain, transport }) as PublicClient;
  const testClient = createTestClient({ mode: "anvil", chain: viemChain, transport });
  // Not the relayer (its nonces are the service's) nor payTo: a dev account that only ever funds payers here.
  const funder = createWalletClient({
    chain: viemChain,
    transport,
    account: privateKeyToAccount(chain.accounts.others[6].privateKey),
  });
  const decimals = chain.usdc.decimals as number;
  const side = {
    chain,
    network: chain.network as string,
    decimals,
    proxy,
    reader,
    testClient,
    token: chain.usdc.address,
    payTo: chain.accounts.payTo.address,
    baseUrl: service.baseUrl,
    /** A price in USDC's six decimals, in this option's token units. */
    units: (atomic6: bigint) => atomic6 * 10n ** BigInt(decimals - 6),
    balance: (address: Address) =>
      reader.readContract({
        address: chain.usdc.address,
        abi: testUsdcAbi,
        functionName: "balanceOf",
        args: [address],
      }),
    block: () => reader.getBlockNumber({ cacheTime: 0 }),
    /** Tokens (and gas, for a payer that sends its own transactions) to `account`. */
    async fund(account: LocalAccount, amount: bigint, gas = false) {
      if (gas) await testClient.setBalance({ address: account.address, value: 10n ** 18n });
      if (amount === 0n) return;
      const hash = await funder.writeContract({
        address: chain.usdc.address,
        abi: testUsdcAbi,
        functionName: "transfer",
        args: [account.address, amount],
      });
      await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    },
    /** Token Transfer events from `from` to payTo in the blocks after `after`. */
    async transfers(from: Address, after: bigint) {
      const latest = await side.block();
      if (latest <= after) return { count: 0, value: 0n };
      const logs = await reader.getLogs({
        address: chain.usdc.address,
        event: transferEvent,
        args: { from, to: chain.accounts.payTo.address },
        fromBlock: after + 1n,
        toBlock: latest,
      });
      return { count: logs.length, value: logs.reduce((sum, log) => sum + log.args.value!, 0n) };
    },
    /** The relayer's transactions mined after `after` that reverted, and the gas they burnt. */
    async relayerReverts(after: bigint) {
      const latest = await side.block();
      let count = 0;
      let gas = 0n;
      for (let n = after + 1n; n <= latest; n++) {
        const block = await reader.getBlock({ blockNumber: n, includeTransactions: true });
        for (const tx of block.transactions) {
          if (tx.from.toLowerCase() !== chain.accounts.relayer.address.toLowerCase()) continue;
          const receipt = await reader.getTransactionReceipt({ hash: tx.hash });
          if (receipt.status === "success") continue;
          count++;
          gas += receipt.gasUsed * receipt.effectiveGasPrice;
        }
      }
      return { count, gas };
    },
    /** The chain's clock: the latest block's timestamp. */
    now: async () => Number((await reader.getBlock({ blockTag: "latest" })).timestamp),
    /** The next block (the next transaction: anvil mines each at once) carries this timestamp. */
    setNextTimestamp: (seconds: number) => testClient.setNextBlockTimestamp({ timestamp: BigInt(seconds) }),
    async advance(seconds: number) {
      await testClient.increaseTime({ seconds });
      await testClient.mine({ blocks: 1 });
    },
    rpcCalls: () => total(proxy.calls),
    sends: () => proxy.calls.eth_sendRawTransaction ?? 0,
    /** A contract without constructor arguments, deployed by `account`. */
    async deploy(account: LocalAccount, artifact: { abi: any; bytecode: Hex }) {
      const wallet = createWalletClient({ chain: viemChain, transport, account });
      const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [] } as never);
      const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      return receipt.contractAddress as Address;
    },
    /** A transaction of `account`'s own (a payer withdrawing, approving), mined. */
    async send(account: LocalAccount, request: { address: Address; abi: any; functionName: string; args: unknown[] }) {
      const wallet = createWalletClient({ chain: viemChain, transport, account });
      const hash = await wallet.writeContract(request as never);
      const receipt = await reader.waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 20 });
      if (receipt.status !== "success") throw new Error(`${request.functionName} reverted`);
      return receipt;
    },
  };
  return side;
}

/** What the cells read on the Solana chain: token balances, landed transactions, the fee payer's lamports. */
export type SolanaSide = ReturnType<typeof solanaSide>;

export function solanaSide(solana: SolanaDevnet, proxy: RpcProxy) {
  const rpc = async (method: string, params: unknown[]) => {
    const res = await fetch(solana.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return ((await res.json()) as { result: any }).result;
  };
  return {
    solana,
    network: solana.network as string,
    decimals: 6,
    proxy,
    units: (atomic6: bigint) => atomic6,
    fund: (owner: SolanaAddress, amount: bigint) => solana.fund(owner, amount),
    balance: (owner: SolanaAddress) => solana.balance(owner),
    feePayerLamports: async () => BigInt((await rpc("getBalance", [solana.accounts.feePayer.address])).value),
    /** Transactions naming `address` that landed, with and without an error. */
    async landed(address: string) {
      const all: { err: unknown }[] = await rpc("getSignaturesForAddress", [address, { limit: 1000 }]);
      return { ok: all.filter((s) => s.err === null).length, failed: all.filter((s) => s.err !== null).length };
    },
    rpcCalls: () => total(proxy.calls),
    sends: () => proxy.calls.sendTransaction ?? 0,
  };
}
