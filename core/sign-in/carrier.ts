import type { CredentialCarrier } from "../payment/carrier.ts";

/** The sign-in-with-x header (CAIP-122): a signed message proving a wallet, base64 JSON. */
export const signInHeader = "sign-in-with-x";

/**
 * Sign in with a wallet, over HTTP and MCP: not a way to pay but a way in to a route that reads the signing wallet's
 * own data (`signIn: true`). Over MCP, `_meta["sign-in-with-x"]` carries the signed payload as an object, or the
 * header's own base64 string; the call path reads it exactly as the header.
 */
export const signInCarrier: CredentialCarrier = {
  requestHeaders: [signInHeader],
  responseHeaders: [],
  fromMeta(meta) {
    const signIn = meta[signInHeader];
    if (typeof signIn === "string") return { [signInHeader]: signIn };
    if (signIn && typeof signIn === "object")
      return { [signInHeader]: Buffer.from(JSON.stringify(signIn)).toString("base64") };
    return undefined;
  },
};
