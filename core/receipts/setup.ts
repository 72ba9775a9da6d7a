import type { Config } from "../runtime/config.ts";
import { devnetSigningKey, serviceKey, type ServiceKey } from "./key.ts";

const isDevnet = (config: Config) => config.payment.facilitator === "devnet" && !config.payment.optionEnv.X402_OPTIONS;
const keys = new WeakMap<Config, ServiceKey | undefined>();

/**
 * The service's signing key: SERVICE_SIGNING_KEY, or the devnet's public one on the devnet. Outside the devnet,
 * receipts on and no key refuses boot: a receipt signed with a key anyone knows proves nothing.
 */
export function serviceKeyOf(config: Config): ServiceKey | undefined {
  if (keys.has(config)) return keys.get(config);
  const seed = config.receipts.signingKey ?? (isDevnet(config) ? devnetSigningKey : undefined);
  if (config.receipts.on && !seed)
    throw new Error(
      "Invalid configuration:\n  SERVICE_SIGNING_KEY: required outside the devnet while RECEIPTS=on (0x + 32 bytes hex; or RECEIPTS=off)",
    );
  const key = config.receipts.on && seed ? serviceKey(seed, config.baseUrl) : undefined;
  keys.set(config, key);
  return key;
}
