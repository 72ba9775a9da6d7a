import {
  AccountRole,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  getTransactionEncoder,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type KeyPairSigner,
  type TransactionSigner,
} from "@solana/kit";
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";

const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111" as Address;
const MEMO = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address;
const le = (value: bigint, bytes: number) => {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = Number((value >> BigInt(8 * i)) & 0xffn);
  return out;
};

/** The @x402/svm client's transaction, built by hand with the compute budget and extra signers an attacker picks. */
export async function handBuilt(
  signer: KeyPairSigner,
  r: { asset: string; payTo: string; amount: string; extra: { feePayer: string } },
  rpcUrl: string,
  o: { units: number; microLamports: bigint; extraSigners: TransactionSigner[] },
) {
  const mint = r.asset as Address;
  const tokenProgram = TOKEN_PROGRAM_ADDRESS;
  const [source] = await findAssociatedTokenPda({ mint, owner: signer.address, tokenProgram });
  const [destination] = await findAssociatedTokenPda({ mint, owner: r.payTo as Address, tokenProgram });
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getLatestBlockhash", params: [] }),
  });
  const { value } = ((await res.json()) as { result: { value: { blockhash: string; lastValidBlockHeight: number } } })
    .result;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(r.extra.feePayer as Address, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          { programAddress: COMPUTE_BUDGET, data: new Uint8Array([2, ...le(BigInt(o.units), 4)]) },
          { programAddress: COMPUTE_BUDGET, data: new Uint8Array([3, ...le(o.microLamports, 8)]) },
          getTransferCheckedInstruction({
            source,
            mint,
            destination,
            authority: signer,
            amount: BigInt(r.amount),
            decimals: 6,
          }),
          {
            programAddress: MEMO,
            accounts: o.extraSigners.map((s) => ({ address: s.address, role: AccountRole.READONLY_SIGNER, signer: s })),
            data: new TextEncoder().encode(crypto.randomUUID()),
          },
        ],
        m,
      ),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: value.blockhash as Blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) },
        m,
      ),
  );
  return getBase64EncodedWireTransaction(await partiallySignTransactionMessageWithSigners(message));
}

/** The wire transaction with `address`'s signature replaced by `signature`. */
export function resigned(wire: string, address: string, signature: Uint8Array) {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
  const bytes = getTransactionEncoder().encode({ ...tx, signatures: { ...tx.signatures, [address]: signature } });
  return Buffer.from(bytes as Uint8Array).toString("base64");
}
export const messageOf = (wire: string) => getTransactionDecoder().decode(getBase64Encoder().encode(wire)).messageBytes;
