/**
 * Sign-in in the OpenAPI document: the `siwx` security scheme (x402scan's `x-agentcash-auth-kind: siwx`) that a
 * route reading the signing wallet's own data requires, and the answers it gives without one.
 */
export const signInSecurityScheme = {
  type: "apiKey",
  in: "header",
  name: "SIGN-IN-WITH-X",
  "x-agentcash-auth-kind": "siwx",
  description:
    "Not a key: a wallet's sign-in (sign-in-with-x, CAIP-122), base64 JSON of the route's challenge signed by the wallet (EVM or Solana). The challenge is in the extensions of the route's 402; one sign-in per request, for that route, within two minutes. Free: the route reads only the signing wallet's own data.",
};

const errorContent = (code: string, message: string) => ({
  "application/json": {
    schema: { $ref: "#/components/schemas/Error" },
    example: { error: { code, message } },
  },
});

export const signInResponses = {
  401: {
    description:
      "The sign-in proves no wallet (another wallet's, replayed, expired, another origin or route); nothing is read",
    content: errorContent("invalid_siwx_nonce", "The sign-in proves no wallet: this sign-in was already used"),
  },
  402: {
    description:
      "Sign in: the sign-in-with-x challenge in PAYMENT-REQUIRED's extensions (base64 JSON), with nothing to pay (`accepts` is empty)",
    headers: {
      "PAYMENT-REQUIRED": { schema: { type: "string" }, description: "base64 JSON PaymentRequired with the challenge" },
    },
    content: errorContent("sign_in_required", "Sign in with your wallet: sign the sign-in-with-x challenge"),
  },
};
