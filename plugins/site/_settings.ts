import { defineSettings, type DevnetNeeds } from "../../core/endpoint.ts";
import { isHttpUrl } from "../../core/runtime/settings.ts";

/**
 * The site's settings: the reviews operator's token, and on the devnet the dev payer's key and the service's own
 * URL, which the "pay with the dev payer" button pays through (the devnet provides both; see `siteDevnet`).
 */
export const siteSettings = defineSettings((env) => {
  const payerKey = env.DEVNET_PAYER_KEY || undefined;
  const selfUrl = env.DEVNET_SELF_URL || undefined;
  if (payerKey && !/^0x[0-9a-fA-F]{64}$/.test(payerKey))
    throw new Error("DEVNET_PAYER_KEY must be a 0x 32-byte hex key");
  if (selfUrl && !isHttpUrl(selfUrl)) throw new Error("DEVNET_SELF_URL must be an http(s) URL");
  return {
    reviewsOperatorToken: env.REVIEWS_OPERATOR_TOKEN || undefined,
    devnetPayerKey: payerKey as `0x${string}` | undefined,
    devnetSelfUrl: selfUrl?.replace(/\/+$/, ""),
  };
});

/** On the devnet, the dev payer and this service's own address, for the devnet-pay route. */
export const siteDevnet: DevnetNeeds = {
  settings: ({ payer, selfUrl }) => ({ DEVNET_PAYER_KEY: payer.privateKey, DEVNET_SELF_URL: selfUrl }),
};
