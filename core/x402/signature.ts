import secp from "secp256k1";
import { createKeccak } from "hash-wasm";
import { keccak256, encodeAbiParameters, toBytes, type Hex } from "viem";
import { BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT_DOMAIN, voucherTypes } from "@x402/evm";
import type { Authorization } from "./codec.ts";
import { remembered } from "../shared.ts";

const transferTypeHash = keccak256(
  toBytes(
    "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)",
  ),
);
const domainTypeHash = keccak256(
  toBytes("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
);

export interface TokenDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: `0x${string}`;
}

const separators = new Map<string, Uint8Array>();
function domainSeparator(d: TokenDomain): Uint8Array {
  const key = `${d.name}|${d.version}|${d.chainId}|${d.verifyingContract.toLowerCase()}`;
  let separator = separators.get(key);
  if (!separator) {
    separator = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "address" }],
        [
          domainTypeHash,
          keccak256(toBytes(d.name)),
          keccak256(toBytes(d.version)),
          BigInt(d.chainId),
          d.verifyingContract,
        ],
      ),
      "bytes",
    );
    separators.set(key, separator);
  }
  return separator;
}

/** Keccak-256 compiled to WebAssembly: about a tenth of the CPU of viem's (noble's) JavaScript one on 32-96 bytes. */
const keccakHasher = await createKeccak(256);
const keccak = (bytes: Uint8Array): Uint8Array => keccakHasher.init().update(bytes).digest("binary");

/** The EIP-712 digest of a struct under a domain: keccak256(0x1901 ‖ domain separator ‖ keccak256(struct)). */
function typedDigest(separator: Uint8Array, struct: Uint8Array): Uint8Array {
  const message = new Uint8Array(66);
  message[0] = 0x19;
  message[1] = 0x01;
  message.set(separator, 2);
  message.set(keccak(struct), 34);
  return keccak(message);
}

const word = (n: bigint) => n.toString(16).padStart(64, "0");
const addressWord = (x: string) => x.slice(2).toLowerCase().padStart(64, "0");
const bytesOf = (hex: string) => Buffer.from(hex, "hex");

/** The EIP-712 digest a payer signs for an EIP-3009 TransferWithAuthorization. */
export function authorizationDigest(domain: TokenDomain, a: Authorization): Uint8Array {
  const struct = `${transferTypeHash.slice(2)}${addressWord(a.from)}${addressWord(a.to)}${word(BigInt(a.value))}${word(BigInt(a.validAfter))}${word(BigInt(a.validBefore))}${a.nonce.slice(2)}`;
  return typedDigest(domainSeparator(domain), bytesOf(struct));
}

const voucherTypeHash = keccak256(
  toBytes(`Voucher(${voucherTypes.Voucher.map((f) => `${f.type} ${f.name}`).join(",")})`),
  "bytes",
);
/** The voucher's `maxClaimableAmount` is a uint128. */
const maxUint128 = (1n << 128n) - 1n;

/**
 * The EIP-712 digest a payer authorizer signs for a batch-settlement voucher on `chainId`: the escrow's domain is
 * hashed once per chain, and each voucher's struct (channel id: 32-byte hex) is written straight into bytes.
 * Undefined for an amount the voucher's uint128 cannot hold (no signature can carry it).
 */
export function voucherDigester(chainId: number) {
  const separator = domainSeparator({
    ...BATCH_SETTLEMENT_DOMAIN,
    chainId,
    verifyingContract: BATCH_SETTLEMENT_ADDRESS,
  });
  return (channelId: Hex, maxClaimableAmount: bigint): Uint8Array | undefined => {
    if (maxClaimableAmount < 0n || maxClaimableAmount > maxUint128) return undefined;
    const struct = Buffer.alloc(96);
    struct.set(voucherTypeHash, 0);
    struct.write(channelId.slice(2), 32, 32, "hex");
    struct.write(word(maxClaimableAmount), 64, 32, "hex");
    return typedDigest(separator, struct);
  };
}

const halfOrder = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/**
 * Recovers the signer of a 65-byte ECDSA signature over `digest` with libsecp256k1 (native, the package's
 * prebuilt binary; bench "sigcheck" compares it), as a lowercase address. Returns undefined for anything that
 * is not a canonical 65-byte signature (high s is refused, as the token and escrow contracts refuse it);
 * smart-wallet signatures (ERC-1271, ERC-6492) are longer and are left to the facilitator.
 */
export function recoverSigner(digest: Uint8Array, signature: string): `0x${string}` | undefined {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  const bytes = bytesOf(signature.slice(2));
  const v = bytes[64];
  const recoveryId = v >= 27 ? v - 27 : v;
  if (recoveryId !== 0 && recoveryId !== 1) return undefined;
  if (BigInt(`0x${signature.slice(66, 130)}`) > halfOrder) return undefined;
  let publicKey: Uint8Array;
  try {
    publicKey = secp.ecdsaRecover(bytes.subarray(0, 64), recoveryId, digest, false);
  } catch {
    // r or s out of range (zero, or not below the curve order), or no point for r: no signer.
    return undefined;
  }
  return addressOf(publicKey);
}

/** Addresses of the public keys seen lately: a payer's key recurs on every call, and its address never changes. */
const addresses = remembered<`0x${string}`>(10_000);

const addressOf = (publicKey: Uint8Array): `0x${string}` =>
  addresses(
    Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString("base64"),
    () => `0x${Buffer.from(keccak(publicKey.subarray(1))).toString("hex", 12)}`,
  );

/** The signer of an EIP-3009 authorization (see recoverSigner). */
export const recoverAuthorizer = (domain: TokenDomain, a: Authorization, signature: string) =>
  recoverSigner(authorizationDigest(domain, a), signature);

export const isLongSignature = (signature: string) => signature.length > 132;
