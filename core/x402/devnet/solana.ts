import { createHash } from "node:crypto";
import { LiteSVM } from "litesvm";
import {
  createKeyPairSignerFromPrivateKeyBytes,
  getBase58Decoder,
  none,
  some,
  type Address,
  type KeyPairSigner,
} from "@solana/kit";
import {
  AccountState,
  findAssociatedTokenPda,
  getMintEncoder,
  getTokenDecoder,
  getTokenEncoder,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { SOLANA_DEVNET_CAIP2 } from "@x402/svm";
import { startSvmNode, type SvmNode } from "./solana-rpc.ts";

/**
 * The local Solana chain of the devnet: an in-process LiteSVM behind the JSON-RPC methods @x402/svm uses
 * (solana-rpc.ts), a test USDC mint (6 decimals) of our own, and dev wallets holding it. It answers as Solana's
 * devnet network (`solana:EtWT...`, v1 `solana-devnet`), the one @x402/svm knows besides mainnet and testnet,
 * as the anvil chain answers as Base Sepolia. Its keys are derived from public words: nothing here guards money.
 */
export interface SolanaDevnet {
  rpcUrl: string;
  network: typeof SOLANA_DEVNET_CAIP2;
  v1Network: "solana-devnet";
  usdc: { address: Address; decimals: 6 };
  accounts: {
    /** Pays every settlement's fee (the facilitator's fee payer) and holds the mint authority. */
    feePayer: SolanaDevAccount;
    payTo: SolanaDevAccount;
    /** Pays in `npm run pay -- <path> --network solana` and the tests. */
    payer: SolanaDevAccount;
    others: SolanaDevAccount[];
  };
  node: SvmNode;
  /** Gives `owner` `amount` test USDC on top of what it holds (its token account is made as needed). */
  fund(owner: Address, amount: bigint): Promise<void>;
  balance(owner: Address): Promise<bigint>;
  stop(): Promise<void>;
}

export interface SolanaDevAccount {
  address: Address;
  signer: KeyPairSigner;
  /** The 32-byte seed and the public key: the 64-byte secret key Solana wallets export, base58. */
  secretKey: string;
}

export const SOLANA_DEV_USDC_PER_ACCOUNT = 1_000_000n * 10n ** 6n;
const roles = ["fee-payer", "pay-to", "payer", "other-0", "other-1", "other-2", "mint"] as const;

/** A dev key from a public phrase and its role: the same on every machine, never for real money. */
export async function solanaDevAccount(role: string): Promise<SolanaDevAccount> {
  const seed = createHash("sha256").update(`x402 devnet solana ${role}`).digest();
  const signer = await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(seed));
  const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", signer.keyPair.publicKey));
  return {
    address: signer.address,
    signer,
    secretKey: getBase58Decoder().decode(new Uint8Array([...seed, ...publicKey])),
  };
}

/** `port`: where the RPC listens (any free one by default; `npm start` asks for 8899, Solana's usual local port). */
export async function startSolanaDevnet(options: { port?: number } = {}): Promise<SolanaDevnet> {
  // Signatures and blockhashes are checked by the node layer (solana-rpc.ts); LiteSVM executes.
  const svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false);
  const [feePayer, payTo, payer, o0, o1, o2, mintKey] = await Promise.all(roles.map(solanaDevAccount));
  const mint = mintKey.address;
  const rent = (size: number) => svm.minimumBalanceForRentExemption(BigInt(size));
  const mintData = getMintEncoder().encode({
    mintAuthority: some(feePayer.address),
    supply: 0n,
    decimals: 6,
    isInitialized: true,
    freezeAuthority: none(),
  });
  svm.setAccount({
    address: mint,
    data: new Uint8Array(mintData),
    executable: false,
    lamports: rent(mintData.length) as never,
    programAddress: TOKEN_PROGRAM_ADDRESS,
    space: BigInt(mintData.length),
  } as never);
  let supply = 0n;

  async function tokenAccount(owner: Address) {
    const [ata] = await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    return ata;
  }
  async function balance(owner: Address) {
    const account = svm.getAccount((await tokenAccount(owner)) as never);
    return account.exists ? getTokenDecoder().decode(account.data).amount : 0n;
  }
  async function fund(owner: Address, amount: bigint) {
    const ata = await tokenAccount(owner);
    const data = getTokenEncoder().encode({
      mint,
      owner,
      amount: (await balance(owner)) + amount,
      delegate: none(),
      state: AccountState.Initialized,
      isNative: none(),
      delegatedAmount: 0n,
      closeAuthority: none(),
    });
    svm.setAccount({
      address: ata,
      data: new Uint8Array(data),
      executable: false,
      lamports: rent(data.length) as never,
      programAddress: TOKEN_PROGRAM_ADDRESS,
      space: BigInt(data.length),
    } as never);
    supply += amount;
    const mintNow = getMintEncoder().encode({
      mintAuthority: some(feePayer.address),
      supply,
      decimals: 6,
      isInitialized: true,
      freezeAuthority: none(),
    });
    svm.setAccount({
      address: mint,
      data: new Uint8Array(mintNow),
      executable: false,
      lamports: rent(mintNow.length) as never,
      programAddress: TOKEN_PROGRAM_ADDRESS,
      space: BigInt(mintNow.length),
    } as never);
  }

  svm.airdrop(feePayer.address as never, (1_000n * 10n ** 9n) as never);
  for (const a of [payTo, payer, o0, o1, o2]) await fund(a.address, SOLANA_DEV_USDC_PER_ACCOUNT);
  const node = await startSvmNode(svm, options.port);
  return {
    rpcUrl: node.url,
    network: SOLANA_DEVNET_CAIP2,
    v1Network: "solana-devnet",
    usdc: { address: mint, decimals: 6 },
    accounts: { feePayer, payTo, payer, others: [o0, o1, o2] },
    node,
    fund,
    balance,
    stop: node.stop,
  };
}
