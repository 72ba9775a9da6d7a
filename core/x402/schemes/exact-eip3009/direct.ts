import { encodeFunctionData, parseEventLogs, type Address, type Hex, type TransactionReceipt } from "viem";
import { relayerOn, SendRefused, type LocalFacilitatorOptions, type RelayerOn } from "../../relayer.ts";
import type { Facilitator, SettleResult, VerifyResult } from "../../facilitator-api.ts";

const transferWithAuthorization = {
  type: "function",
  name: "transferWithAuthorization",
  stateMutability: "nonpayable",
  inputs: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
    { name: "v", type: "uint8" },
    { name: "r", type: "bytes32" },
    { name: "s", type: "bytes32" },
  ],
  outputs: [],
} as const;
const transferEvent = {
  type: "event",
  name: "Transfer",
  inputs: [
    { name: "from", type: "address", indexed: true },
    { name: "to", type: "address", indexed: true },
    { name: "value", type: "uint256", indexed: false },
  ],
} as const;
const abi = [transferWithAuthorization, transferEvent] as const;

/** Enough for transferWithAuthorization on FiatToken and our TestUSDC; a fixed limit spares an estimate per settlement. */
const settlementGas = 150_000n;

/** The EIP-3009 transfer a payment authorizes, when it is the exact scheme with a 65-byte (EOA) signature. */
interface Transfer {
  asset: Address;
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
  v: number;
  r: Hex;
  s: Hex;
  payTo: string;
  amount: bigint;
  network: string;
}

function transferOf(payload: any, requirements: any): Transfer | undefined {
  const a = payload?.payload?.authorization;
  const signature: string | undefined = payload?.payload?.signature;
  if (!a || typeof signature !== "string" || !/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  const v = parseInt(signature.slice(130, 132), 16);
  return {
    asset: requirements.asset,
    from: a.from,
    to: a.to,
    value: BigInt(a.value),
    validAfter: BigInt(a.validAfter),
    validBefore: BigInt(a.validBefore),
    nonce: a.nonce,
    v: v < 27 ? v + 27 : v,
    r: `0x${signature.slice(2, 66)}`,
    s: `0x${signature.slice(66, 130)}`,
    payTo: requirements.payTo,
    amount: BigInt(requirements.amount ?? requirements.maxAmountRequired),
    network: requirements.network,
  };
}

const argsOf = (t: Transfer) => [t.from, t.to, t.value, t.validAfter, t.validBefore, t.nonce, t.v, t.r, t.s] as const;

/** The token's revert reasons (FiatToken and ours word them alike) as x402's invalid reasons. */
function reasonOf(error: unknown): string {
  const text = String((error as Error)?.message ?? error);
  if (/invalid signature/i.test(text)) return "invalid_exact_evm_signature";
  if (/used or canceled/i.test(text)) return "invalid_exact_evm_nonce_already_used";
  if (/exceeds balance/i.test(text)) return "invalid_exact_evm_insufficient_balance";
  if (/not yet valid/i.test(text)) return "invalid_exact_evm_payload_authorization_valid_after";
  if (/expired/i.test(text)) return "invalid_exact_evm_payload_authorization_valid_before";
  return "invalid_exact_evm_transaction_simulation_failed";
}

/**
 * Verifies and settles EIP-3009 payments signed by an EOA without re-checking what the gate has checked:
 * verify is one `eth_call` of the token's own `transferWithAuthorization` (the token checks the signature,
 * the nonce, the time window and the balance), settle sends it from the relayer and reads the Transfer
 * event off the receipt. @x402/core's facilitator recovers the signature again in both steps, in pure JS;
 * this is what makes paid calls about twice as fast (bench/findings.md). Other payloads (ERC-1271 or
 * ERC-6492 signatures) go to `fallback`.
 */
export function createDirectEip3009(
  o: LocalFacilitatorOptions,
  fallback: Facilitator,
  sender: RelayerOn = relayerOn(o),
  now: () => number = Date.now,
): Facilitator {
  const { client, account, relayer } = sender;

  function terms(t: Transfer): VerifyResult | undefined {
    const seconds = BigInt(Math.floor(now() / 1000));
    const refuse = (invalidReason: string) => ({ isValid: false, invalidReason, payer: t.from });
    if (t.to.toLowerCase() !== t.payTo.toLowerCase()) return refuse("invalid_exact_evm_recipient_mismatch");
    if (t.value !== t.amount) return refuse("invalid_exact_evm_payload_authorization_value_mismatch");
    // Six seconds of margin, as @x402/evm keeps: the transfer must still be valid when it is mined.
    if (t.validBefore < seconds + 6n) return refuse("invalid_exact_evm_payload_authorization_valid_before");
    if (t.validAfter > seconds) return refuse("invalid_exact_evm_payload_authorization_valid_after");
    return undefined;
  }

  return {
    async verify(payload, requirements): Promise<VerifyResult> {
      const t = transferOf(payload, requirements);
      if (!t) return fallback.verify(payload, requirements);
      const refused = terms(t);
      if (refused) return refused;
      try {
        await client.simulateContract({
          address: t.asset,
          abi,
          functionName: "transferWithAuthorization",
          args: argsOf(t),
          account,
        });
        return { isValid: true, payer: t.from };
      } catch (error) {
        return {
          isValid: false,
          invalidReason: reasonOf(error),
          invalidMessage: (error as Error).message?.split("\n")[0],
          payer: t.from,
        };
      }
    },
    async settle(payload, requirements): Promise<SettleResult> {
      const t = transferOf(payload, requirements);
      if (!t) return fallback.settle(payload, requirements);
      const data = encodeFunctionData({ abi, functionName: "transferWithAuthorization", args: argsOf(t) });
      const failed = (errorReason: string, transaction = "", errorMessage?: string): SettleResult => ({
        success: false,
        errorReason,
        errorMessage,
        transaction,
        network: t.network,
        payer: t.from,
      });
      let relayed: { hash: Hex; receipt: TransactionReceipt };
      try {
        relayed = await relayer.relay({ to: t.asset, data, gas: settlementGas }, o.confirmationTimeoutMs ?? 60_000);
      } catch (error) {
        // Refused: nothing reached a pool, so nothing can move. Anything else may still land: the gate reconciles it.
        if (error instanceof SendRefused) return failed("unexpected_settle_error", "", error.message);
        throw error;
      }
      const { hash: transaction, receipt } = relayed;
      if (receipt.status !== "success") return failed("invalid_exact_evm_transaction_failed", transaction);
      const moved = parseEventLogs({ abi, logs: receipt.logs, eventName: "Transfer" }).some(
        (log) =>
          log.address.toLowerCase() === t.asset.toLowerCase() &&
          log.args.from.toLowerCase() === t.from.toLowerCase() &&
          log.args.to.toLowerCase() === t.to.toLowerCase() &&
          log.args.value === t.value,
      );
      if (!moved) return failed("invalid_exact_evm_transfer_event_mismatch", transaction);
      return { success: true, transaction, network: t.network, payer: t.from };
    },
  };
}
