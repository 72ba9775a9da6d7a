import { createHash } from "node:crypto";
import type { EVMMessageVerifier } from "@x402/extensions/sign-in-with-x";
import { createPublicClient, http } from "viem";
import type { Runtime } from "../runtime/container.ts";
import type { Call, Outcome } from "../runtime/call.ts";
import { signInHeader } from "./carrier.ts";
import { toErrorBody, ServiceError } from "../runtime/errors.ts";
import { devnetSigningKey } from "../receipts/key.ts";
import { SIGN_IN_WITH_X, createSignIn, type SignIn } from "./sign-in.ts";

const signIns = new WeakMap<Runtime, SignIn>();

/** The runtime's sign-in: its payment networks, BASE_URL's origin, its store, and its chain for smart wallets. */
function signInOf(rt: Runtime): SignIn {
  let signIn = signIns.get(rt);
  if (signIn) return signIn;
  const seed = rt.config.receipts.signingKey ?? devnetSigningKey;
  const rpcUrl = rt.devnet?.rpcUrl ?? rt.config.payment.rpcUrl;
  const chainId = rt.devnet ? `eip155:${rt.devnet.chainId}` : rt.config.payment.network;
  const verifier = rpcUrl
    ? (createPublicClient({ transport: http(rpcUrl) }).verifyMessage as EVMMessageVerifier)
    : undefined;
  signIn = createSignIn({
    baseUrl: rt.config.baseUrl,
    store: rt.store,
    networks: [...new Set(rt.payments.options.map((o) => o.network))],
    evmVerifierOf: (id) => (id === chainId ? verifier : undefined),
    secret: createHash("sha256").update(`sign-in nonces ${seed}`).digest(),
  });
  signIns.set(rt, signIn);
  return signIn;
}

/** A 402 that asks for nothing but a signature: no `accepts`, the `sign-in-with-x` challenge in its extensions. */
function challenged(rt: Runtime, call: Call, status: number, error: ServiceError): Outcome {
  const required = {
    x402Version: 2,
    error: error.message,
    resource: { url: call.resource },
    accepts: [],
    extensions: { [SIGN_IN_WITH_X]: signInOf(rt).challenge(call.endpoint.path) },
  };
  return {
    status,
    body: toErrorBody(error),
    headers: {
      "payment-required": Buffer.from(JSON.stringify(required)).toString("base64"),
      "cache-control": "no-store",
    },
  };
}

/**
 * A route read with a signed-in wallet (`signIn: true`): free, never paid. No `SIGN-IN-WITH-X` header is a 402
 * carrying a challenge; one that proves no wallet is a 401 (with a fresh challenge), and nothing runs.
 */
export async function withSignIn(rt: Runtime, call: Call, run: (wallet: string) => Promise<Outcome>): Promise<Outcome> {
  const header = call.payment?.[signInHeader];
  if (!header)
    return challenged(
      rt,
      call,
      402,
      new ServiceError(
        402,
        "sign_in_required",
        "Sign in with your wallet: sign the sign-in-with-x challenge and send it as SIGN-IN-WITH-X",
      ),
    );
  const signedIn = await signInOf(rt).verify(header, call.endpoint.path);
  if ("refused" in signedIn)
    return challenged(
      rt,
      call,
      401,
      new ServiceError(401, signedIn.refused, `The sign-in proves no wallet: ${signedIn.message}`),
    );
  return run(signedIn.wallet);
}
