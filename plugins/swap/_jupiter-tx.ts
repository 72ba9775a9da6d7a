import * as v from "valibot";

const Account = v.object({ pubkey: v.string(), isSigner: v.boolean(), isWritable: v.boolean() });
/** One instruction as Jupiter's `/swap/v2/build` gives it: base58 keys, base64 data. */
export const JupiterInstruction = v.object({
  programId: v.string(),
  accounts: v.array(Account),
  data: v.pipe(v.string(), v.base64()),
});
export type JupiterInstruction = v.InferOutput<typeof JupiterInstruction>;

export interface BuiltSwap {
  computeBudgetInstructions: JupiterInstruction[];
  setupInstructions: JupiterInstruction[];
  swapInstruction: JupiterInstruction;
  cleanupInstruction?: JupiterInstruction | null;
  otherInstructions?: JupiterInstruction[];
  tipInstruction?: JupiterInstruction | null;
  addressesByLookupTableAddress?: Record<string, string[]> | null;
  blockhashWithMetadata: { blockhash: number[]; lastValidBlockHeight: number };
}

/**
 * The unsigned v0 transaction of a `/swap/v2/build` answer, base64 as wallets take it: the taker pays, the
 * instructions in Jupiter's order, accounts compressed through the lookup tables Jupiter resolved. Kit loads
 * on the first Solana trade, so a service that never quotes one never loads it.
 */
export async function assembleTransaction(built: BuiltSwap, taker: string): Promise<string> {
  const kit = await import("@solana/kit");
  const role = (a: v.InferOutput<typeof Account>) =>
    a.isSigner
      ? a.isWritable
        ? kit.AccountRole.WRITABLE_SIGNER
        : kit.AccountRole.READONLY_SIGNER
      : a.isWritable
        ? kit.AccountRole.WRITABLE
        : kit.AccountRole.READONLY;
  const instruction = (ix: JupiterInstruction) => ({
    programAddress: kit.address(ix.programId),
    accounts: ix.accounts.map((a) => ({ address: kit.address(a.pubkey), role: role(a) })),
    data: new Uint8Array(Buffer.from(ix.data, "base64")),
  });
  const instructions = [
    ...built.computeBudgetInstructions,
    ...built.setupInstructions,
    built.swapInstruction,
    ...(built.cleanupInstruction ? [built.cleanupInstruction] : []),
    ...(built.otherInstructions ?? []),
    ...(built.tipInstruction ? [built.tipInstruction] : []),
  ].map(instruction);
  const tables = Object.fromEntries(
    Object.entries(built.addressesByLookupTableAddress ?? {}).map(([table, addresses]) => [
      kit.address(table),
      addresses.map((a) => kit.address(a)),
    ]),
  );
  const { blockhash, lastValidBlockHeight } = built.blockhashWithMetadata;
  const message = kit.pipe(
    kit.createTransactionMessage({ version: 0 }),
    (m) => kit.setTransactionMessageFeePayer(kit.address(taker), m),
    (m) =>
      kit.setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: kit.getBase58Decoder().decode(Uint8Array.from(blockhash)) as ReturnType<typeof kit.blockhash>,
          lastValidBlockHeight: BigInt(lastValidBlockHeight),
        },
        m,
      ),
    (m) => kit.appendTransactionMessageInstructions(instructions, m),
    (m) => kit.compressTransactionMessageUsingAddressLookupTables(m, tables),
  );
  return kit.getBase64EncodedWireTransaction(kit.compileTransaction(message));
}
