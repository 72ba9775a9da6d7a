import * as secp from "tiny-secp256k1";
import { getAddress, keccak256, encodeAbiParameters, toBytes, toHex, type Hex } from "viem";
import type { Authorization } from "./codec.ts";

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

const separators = new Map<string, Hex>();
function domainSeparator(d: TokenDomain): Hex {
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
    );
    separators.set(key, separator);
  }
  return separator;
}

/** The EIP-712 digest a payer signs for an EIP-3009 TransferWithAuthorization. */
export function authorizationDigest(domain: TokenDomain, a: Authorization): Uint8Array {
  const word = (n: bigint) => n.toString(16).padStart(64, "0");
  const address = (x: string) => x.slice(2).toLowerCase().padStart(64, "0");
  const struct = keccak256(
    `0x${transferTypeHash.slice(2)}${address(a.from)}${address(a.to)}${word(BigInt(a.value))}${word(BigInt(a.validAfter))}${word(BigInt(a.validBefore))}${a.nonce.slice(2)}`,
    "bytes",
  );
  return keccak256(new Uint8Array([0x19, 0x01, ...toBytes(domainSeparator(domain)), ...struct]), "bytes");
}

const halfOrder = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/**
 * Recovers the signer of a 65-byte ECDSA signature with libsecp256k1 (WASM), about ten times faster than
 * pure JS. Returns undefined for anything that is not a canonical 65-byte signature; smart-wallet
 * signatures (ERC-1271, ERC-6492) are longer and are left to the facilitator.
 */
export function recoverAuthorizer(domain: TokenDomain, a: Authorization, signature: string): `0x${string}` | undefined {
  if (signature.length !== 132) return undefined;
  const bytes = toBytes(signature as Hex);
  const v = bytes[64];
  const recoveryId = v >= 27 ? v - 27 : v;
  if (recoveryId !== 0 && recoveryId !== 1) return undefined;
  if (BigInt(toHex(bytes.subarray(32, 64))) > halfOrder) return undefined;
  let publicKey: Uint8Array | null;
  try {
    publicKey = secp.recover(authorizationDigest(domain, a), bytes.subarray(0, 64), recoveryId as 0 | 1, false);
  } catch {
    // r or s out of range (zero, or not below the curve order): no signer.
    return undefined;
  }
  if (!publicKey) return undefined;
  return getAddress(`0x${keccak256(publicKey.subarray(1), "hex").slice(-40)}`);
}

export const isLongSignature = (signature: string) => signature.length > 132;
