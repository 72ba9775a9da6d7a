import { ServiceError } from "../../core/runtime/errors.ts";

/**
 * The paying wallet, an EVM address lower-cased (a Solana address as it is: base58 is case-sensitive): the
 * namespace of a caller's keys and watches. A call paid with a credit code (or run inside a batch paid that way)
 * carries no wallet, so it is refused, 403 and not charged.
 */
export function walletOf(payer: string | undefined): string {
  if (!payer) {
    throw new ServiceError(
      403,
      "wallet_required",
      "This route is keyed by the paying wallet: pay it with a wallet-signed x402 payment, not a credit code",
    );
  }
  return payer.startsWith("0x") ? payer.toLowerCase() : payer;
}

/** Every key of the family starts with `state:`; these are the sub-spaces. */
export const stateKeys = {
  value: (wallet: string, key: string) => `state:kv:${wallet}:${key}`,
  watch: (id: string) => `state:watch:${id}`,
  watchPrefix: "state:watch:",
  slot: (wallet: string, n: number) => `state:slot:${wallet}:${n}`,
  delivery: (id: string) => `state:delivery:${id}`,
  deliveryPrefix: "state:delivery:",
  checkLease: (id: string, due: string) => `state:lease:check:${id}:${due}`,
  attemptLease: (id: string, attempt: number) => `state:lease:attempt:${id}:${attempt}`,
};

export const isoAfter = (from: Date, ms: number) => new Date(from.getTime() + ms).toISOString();

/** The wallet signed in on a `signIn` route; a call that reached the handler without one (a batch item) is refused. */
export function signedInWallet(wallet: string | undefined): string {
  if (!wallet)
    throw new ServiceError(
      401,
      "sign_in_required",
      "This route reads a signed-in wallet's own data: send SIGN-IN-WITH-X",
    );
  return wallet;
}

export const signInNote =
  "Free: sign in with the wallet (the sign-in-with-x challenge of this route's 402, signed and sent as SIGN-IN-WITH-X; " +
  "one sign-in per request, for this route, within two minutes). Reads only the signing wallet's own data.";
