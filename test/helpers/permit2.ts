import { PERMIT2_ADDRESS } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import { createPublicClient, createWalletClient, http, maxUint256, parseAbiItem, type Address } from "viem";
import { privateKeyToAccount, type LocalAccount } from "viem/accounts";
import { devnetChain, testUsdcAbi } from "../../core/x402/devnet/index.ts";
import { freshAccount, type Devnet } from "./paid.ts";

const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

/**
 * A devnet token paid through Permit2, as its payers see it: fresh wallets holding it (with or without the one-time
 * approval of Permit2), what they moved to payTo, their balance and their allowance to Permit2.
 */
export function permit2Token(devnet: Devnet, token: Address) {
  const transport = http(devnet.rpcUrl);
  const chain = devnetChain(devnet.rpcUrl);
  const reader = createPublicClient({ chain, transport });
  const contract = { address: token, abi: testUsdcAbi } as const;
  const walletOf = (account: LocalAccount) => createWalletClient({ chain, transport, account });
  const approvePermit2 = async (account: LocalAccount, amount = maxUint256) =>
    reader.waitForTransactionReceipt({
      hash: await walletOf(account).writeContract({
        ...contract,
        functionName: "approve",
        args: [PERMIT2_ADDRESS, amount],
      }),
    });
  return {
    reader,
    walletOf,
    approvePermit2,
    /** A fresh wallet holding `amount` of the token and gas; `approve` gives Permit2 its allowance, as a wallet does once. */
    async wallet(amount: bigint, approve: boolean) {
      const account = freshAccount();
      const funder = walletOf(privateKeyToAccount(devnet.accounts.others[5].privateKey));
      await funder.sendTransaction({ to: account.address, value: 10n ** 17n });
      await reader.waitForTransactionReceipt({
        hash: await funder.writeContract({ ...contract, functionName: "transfer", args: [account.address, amount] }),
      });
      if (approve) await approvePermit2(account);
      return account;
    },
    /** Every Transfer of the token from `from` to payTo, by value. */
    async transfersFrom(from: Address) {
      const logs = await reader.getLogs({
        address: token,
        event: transferEvent,
        args: { from, to: devnet.accounts.payTo.address },
        fromBlock: 0n,
      });
      return logs.map((l) => l.args.value!);
    },
    balanceOf: (owner: Address) => reader.readContract({ ...contract, functionName: "balanceOf", args: [owner] }),
    allowanceOf: (owner: Address) =>
      reader.readContract({ ...contract, functionName: "allowance", args: [owner, PERMIT2_ADDRESS] }),
    /** @x402/fetch's client with @x402/evm's own exact scheme, offered only this token's option (its Permit2 path). */
    client(account: LocalAccount) {
      const client = new x402Client()
        .register(devnet.network, new ExactEvmScheme(account, { rpcUrl: devnet.rpcUrl }))
        .setSpendControls(false);
      client.registerPolicy((_v, accepts) => accepts.filter((a) => a.asset.toLowerCase() === token.toLowerCase()));
      return client;
    },
  };
}
