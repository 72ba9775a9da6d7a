import { createHash, createPublicKey, verify } from "node:crypto";
import {
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Address,
} from "@solana/kit";
import { findAssociatedTokenPda } from "@solana-program/token";
import { PaymentRejected } from "../../codec.ts";
import type { BoundCommon } from "../../bound.ts";
import type { ExactCommon } from "../../exact.ts";
import { exactSvmTerms } from "./terms.ts";

/**
 * A Solana payment (the exact scheme of @x402/svm): a transaction the payer signed, fee payer the facilitator.
 * Unique by its message: one message has one transaction id (the fee payer signs it deterministically), so the
 * chain lands it at most once, and the claim key is the message's hash. It can land only while its blockhash is
 * valid (150 slots, about a minute); a durable-nonce transaction, which could wait forever, fails the layout.
 */
export interface BoundSvmPayment extends BoundCommon {
  /** The wire transaction, base64, as the payer signed it. */
  transaction: string;
  /** sha256 of the message, hex: what makes the payment unique. */
  messageHash: string;
  blockhash: string;
  /** The payer's signature, base58: it finds the transaction on-chain when its id was never learnt. */
  payerSignature: string;
}

const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111";
const TOKEN_PROGRAMS = ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"];
const ALLOWED_AFTER_TRANSFER = [
  "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
  "L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95",
];
/**
 * What the fee payer may be made to pay for one payment: 5,000 lamports per signature, for the fee payer's and the
 * payer's (the only two the layout needs), plus a priority fee of units x price of at most one more signature's
 * worth. The worst is 15,000 lamports; @x402/svm's client asks 20,000 units at 1 micro-lamport (10,001 lamports).
 */
export const svmFeeLimits = {
  signatures: 2,
  /** The budget a Solana instruction gets without asking; an SPL transfer with a memo uses about 20,000. */
  computeUnits: 200_000,
  priorityLamports: 5_000n,
  /** @x402/svm's own facilitator ceiling on the unit price. */
  microLamportsPerUnit: 5_000_000n,
};
/** Longer than a blockhash lives (150 slots of at most about 0.6 s): after it, the transaction can no longer land. */
export const svmLifetimeSeconds = 180;

const txDecoder = getTransactionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();
const b58 = getBase58Encoder();
const spkiPrefix = Buffer.from("302a300506032b6570032100", "hex");
const u64 = (bytes: Uint8Array, at: number) =>
  new DataView(bytes.buffer, bytes.byteOffset + at, 8).getBigUint64(0, true);
const u32 = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true);
const destinations = new Map<string, Promise<string>>();

const refuse = (reason: string, message: string) => new PaymentRejected(reason, message);

/** An Ed25519 signature over the message by the address's key; a key that is not one (off the curve) proves nothing. */
function ed25519Holds(address: string, message: Uint8Array, signature: Uint8Array) {
  try {
    return verify(
      null,
      message,
      createPublicKey({
        key: Buffer.concat([spkiPrefix, Buffer.from(b58.encode(address) as Uint8Array)]),
        format: "der",
        type: "spki",
      }),
      signature,
    );
  } catch {
    return false;
  }
}

/** The transfer's recipient token account: the associated account of payTo for the mint (derived once per option). */
function destinationOf(payTo: string, mint: string, tokenProgram: string) {
  const key = `${payTo}|${mint}|${tokenProgram}`;
  let d = destinations.get(key);
  if (!d) {
    d = findAssociatedTokenPda({
      owner: payTo as Address,
      mint: mint as Address,
      tokenProgram: tokenProgram as Address,
    }).then(([ata]) => String(ata));
    destinations.set(key, d);
  }
  return d;
}

/**
 * Binds a Solana payment to our requirement and proves the payer's signature locally (Ed25519), before any RPC:
 * the layout the @x402/svm facilitator accepts (compute limit, compute price, TransferChecked, then only memo or
 * Lighthouse), a fee within svmFeeLimits, our mint, our payee's token account, our amount, our fee payer, no
 * address lookup tables.
 */
export async function bindSvmTransaction(
  transaction: string,
  common: ExactCommon,
  nowSeconds: number,
): Promise<BoundSvmPayment> {
  const requirement = common.requirement;
  const amount = "amount" in requirement ? requirement.amount : requirement.maxAmountRequired;
  let tx: ReturnType<typeof txDecoder.decode>;
  let message: ReturnType<typeof messageDecoder.decode>;
  try {
    tx = txDecoder.decode(getBase64Encoder().encode(transaction));
    message = messageDecoder.decode(tx.messageBytes);
  } catch {
    throw refuse("invalid_exact_svm_payload_transaction_could_not_be_decoded", "The transaction could not be decoded");
  }
  if ("addressTableLookups" in message && (message.addressTableLookups?.length ?? 0) > 0) {
    throw refuse("invalid_exact_svm_payload_transaction", "Transactions with address lookup tables are not accepted");
  }
  // Every required signature costs the fee payer 5,000 lamports, whoever signs.
  if (message.header.numSignerAccounts > svmFeeLimits.signatures)
    throw refuse(
      "invalid_exact_svm_payload_excessive_signers",
      `The transaction asks ${message.header.numSignerAccounts} signatures; a payment needs ${svmFeeLimits.signatures}`,
    );
  const keys = message.staticAccounts.map(String);
  const ix = message.instructions;
  const program = (i: number) => keys[ix[i].programAddressIndex];
  if (ix.length < 3 || ix.length > 7)
    throw refuse(
      "invalid_exact_svm_payload_transaction_instructions_length",
      "The transaction has the wrong number of instructions",
    );
  const data = (i: number) => (ix[i].data ?? new Uint8Array()) as Uint8Array;
  if (program(0) !== COMPUTE_BUDGET || data(0)[0] !== 2 || data(0).length !== 5)
    throw refuse(
      "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction",
      "The first instruction must set the compute unit limit",
    );
  if (program(1) !== COMPUTE_BUDGET || data(1)[0] !== 3 || data(1).length !== 9)
    throw refuse(
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction",
      "The second instruction must set the compute unit price",
    );
  const units = u32(data(0), 1);
  if (units > svmFeeLimits.computeUnits)
    throw refuse(
      "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction_too_high",
      `The compute unit limit ${units} is above ${svmFeeLimits.computeUnits}`,
    );
  const price = u64(data(1), 1);
  // The priority fee the fee payer pays is the limit times the price (in micro-lamports), rounded up.
  if (
    price > svmFeeLimits.microLamportsPerUnit ||
    (BigInt(units) * price + 999_999n) / 1_000_000n > svmFeeLimits.priorityLamports
  )
    throw refuse(
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
      `The compute unit price makes a priority fee above ${svmFeeLimits.priorityLamports} lamports`,
    );
  const tokenProgram = program(2);
  const transfer = data(2);
  const accounts = (ix[2].accountIndices ?? []).map((i) => keys[i]);
  if (!TOKEN_PROGRAMS.includes(tokenProgram) || transfer[0] !== 12 || transfer.length !== 10 || accounts.length < 4) {
    throw refuse(
      "invalid_exact_svm_payload_no_transfer_instruction",
      "The third instruction must be the token's TransferChecked",
    );
  }
  for (let i = 3; i < ix.length; i++) {
    if (!ALLOWED_AFTER_TRANSFER.includes(program(i)))
      throw refuse("invalid_exact_svm_payload_unknown_optional_instruction", "Only a memo may follow the transfer");
  }
  const [, mint, destination, authority] = accounts;
  const feePayer = keys[0];
  if (feePayer !== requirement.extra.feePayer)
    throw refuse(
      "invalid_exact_svm_fee_payer_mismatch",
      "The transaction's fee payer is not this service's facilitator",
    );
  if (authority === feePayer)
    throw refuse(
      "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
      "The fee payer may not be the one paying",
    );
  if (mint !== requirement.asset)
    throw refuse("invalid_exact_svm_payload_mint_mismatch", `The transfer is of ${mint}, not ${requirement.asset}`);
  if (u64(transfer, 1) !== BigInt(amount))
    throw refuse(
      "invalid_exact_svm_payload_amount_mismatch",
      `The transfer moves ${u64(transfer, 1)}, this route costs ${amount}`,
    );
  if (destination !== (await destinationOf(requirement.payTo, requirement.asset, tokenProgram))) {
    throw refuse("invalid_exact_svm_payload_recipient_mismatch", "The transfer pays another account");
  }
  // The payer signed this message: proven here, with the message's own key, before anything else reads it.
  const signature = tx.signatures[authority as Address] as Uint8Array | null | undefined;
  const messageBytes = tx.messageBytes as unknown as Uint8Array;
  const signerIndex = keys.indexOf(authority);
  const proven =
    signature &&
    signerIndex > 0 &&
    signerIndex < message.header.numSignerAccounts &&
    ed25519Holds(authority, messageBytes, signature);
  if (!proven)
    throw refuse("invalid_exact_svm_payload_signature_invalid", "The payer's signature does not match the transaction");
  const messageHash = createHash("sha256").update(messageBytes).digest("hex");
  return {
    ...common,
    scheme: exactSvmTerms,
    nonce: messageHash,
    recorded: { svm: { blockhash: message.lifetimeToken, payerSignature: getBase58Decoder().decode(signature) } },
    payer: authority,
    // Base58 is case-sensitive: nothing here is lower-cased.
    claimId: `${requirement.asset}:${authority}:${messageHash}`,
    amount,
    validUntil: nowSeconds + svmLifetimeSeconds,
    signerProven: true,
    transaction,
    messageHash,
    blockhash: message.lifetimeToken,
    payerSignature: getBase58Decoder().decode(signature),
  };
}
