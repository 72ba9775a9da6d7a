import { getDefaultAsset } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";

/** @x402/svm 2.27's networks and USDC mints (its `SOLANA_*_CAIP2`, `USDC_*_ADDRESS`; options.test.ts checks they agree), kept here so a service without Solana never loads it. */
const SOLANA_MAINNET_CAIP2 = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const SOLANA_DEVNET_CAIP2 = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const SOLANA_TESTNET_CAIP2 = "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z";
const USDC_MAINNET_ADDRESS = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const USDC_DEVNET_ADDRESS = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
import type { PaymentOption } from "./requirements.ts";

/**
 * The payment options the configuration describes: `X402_OPTIONS=base,polygon,...` names presets (or options
 * of the operator's own), each refined by `X402_<NAME>_*` variables; without it, the one option of
 * `X402_NETWORK` / `X402_ASSET` (Base USDC by default). Every problem of every option is listed at once.
 */

/** How one option settles: in process (our relayer pays the gas) or through a remote facilitator. */
export type OptionFacilitator =
  | { kind: "local"; rpcUrl: string; relayerKey: string }
  | { kind: "remote"; url: string; auth?: string };

export interface ConfiguredOption {
  /** The name it is configured under (`base`, `polygon`, ...): what boot errors and logs name. */
  name: string;
  option: PaymentOption;
  facilitator: OptionFacilitator;
  /** The chain's RPC: reconciliation, contract-wallet proofs and readiness read it; optional with a remote facilitator. */
  rpcUrl?: string;
  /** Solana: the fee payer the remote facilitator signs with, when configured (else read from its /supported). */
  feePayer?: string;
  /** Signs claims and refunds as the receiver authorizer of the option's batch-settlement channels, when it takes vouchers. */
  batchAuthorizerKey?: `0x${string}`;
}

interface Preset {
  network: string;
  asset: string;
  decimals: number;
  extra: Record<string, string>;
  /** The token has no EIP-3009 `transferWithAuthorization`: it is offered with `exact` through Permit2 only. */
  permit2Only?: true;
}

/** USDC as @x402/evm's own default-asset table gives it (address, decimals, EIP-712 domain). */
function fromEvmTable(network: string): Preset {
  const a = getDefaultAsset(network as `${string}:${string}`, "USDC");
  return { network, asset: a.asset, decimals: a.decimals, extra: { name: a.name, version: a.version } };
}

/** A token without EIP-3009 (nor the EIP-2612 permit the devnet's Permit2 path could use): paid through Permit2. */
const permit2Token =
  (network: string, asset: string, decimals: number): (() => Preset) =>
  () => ({
    network,
    asset,
    decimals,
    extra: {},
    permit2Only: true,
  });

/**
 * USDT and DAI, each on the networks where its issuer (or the network's own bridge) publishes it. Neither has
 * EIP-3009, so each is paid with `exact` through Permit2 (`X402_<NAME>_TRANSFER_METHOD` can only be `permit2`):
 * - USDT on Ethereum (0xdAC1...1ec7) and Avalanche C-Chain (0x9702...A8c7): Tether's list of supported protocols,
 *   https://tether.to/en/supported-protocols; on Arbitrum (0xFd08...Cbb9) and Polygon PoS (0xc213...8e8F), USDT0,
 *   Tether's omnichain USDT at the addresses of the earlier bridged USDT (https://docs.usdt0.to, deployments);
 *   on Optimism (0x94b0...8e58), the Optimism token list's USDT
 *   (https://github.com/ethereum-optimism/ethereum-optimism.github.io, data/USDT/data.json).
 * - DAI on Ethereum (0x6B17...1d0F): MakerDAO/Sky's chainlog, MCD_DAI (https://chainlog.sky.money); on Arbitrum
 *   and Optimism (0xDA10...0da1, the same address on both): the L2 DAI of MakerDAO's own bridges
 *   (https://github.com/makerdao/arbitrum-dai-bridge, https://github.com/makerdao/optimism-dai-bridge).
 */
const permit2Presets: Record<string, () => Preset> = {
  "ethereum-usdt": permit2Token("eip155:1", "0xdAC17F958D2ee523a2206206994597C13D831ec7", 6),
  "arbitrum-usdt": permit2Token("eip155:42161", "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", 6),
  "polygon-usdt": permit2Token("eip155:137", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", 6),
  "optimism-usdt": permit2Token("eip155:10", "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58", 6),
  "avalanche-usdt": permit2Token("eip155:43114", "0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7", 6),
  "ethereum-dai": permit2Token("eip155:1", "0x6B175474E89094C44Da98b954EedeAC495271d0F", 18),
  "arbitrum-dai": permit2Token("eip155:42161", "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1", 18),
  "optimism-dai": permit2Token("eip155:10", "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1", 18),
};

/** Presets: USDC on each network. Optimism's is not in @x402/evm 2.27's table: Circle's native USDC (FiatToken v2.2). */
export const presets: Record<string, () => Preset> = {
  base: () => fromEvmTable("eip155:8453"),
  "base-sepolia": () => fromEvmTable("eip155:84532"),
  polygon: () => fromEvmTable("eip155:137"),
  arbitrum: () => fromEvmTable("eip155:42161"),
  optimism: () => ({
    network: "eip155:10",
    asset: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
    decimals: 6,
    extra: { name: "USD Coin", version: "2" },
  }),
  avalanche: () => fromEvmTable("eip155:43114"),
  // Solana USDC as @x402/svm's own table gives it.
  solana: () => ({ network: SOLANA_MAINNET_CAIP2, asset: USDC_MAINNET_ADDRESS, decimals: 6, extra: {} }),
  "solana-devnet": () => ({ network: SOLANA_DEVNET_CAIP2, asset: USDC_DEVNET_ADDRESS, decimals: 6, extra: {} }),
  ...permit2Presets,
};

/** The Solana networks @x402/svm 2.27 serves (its RPC client refuses any other). */
const svmNetworks = [SOLANA_MAINNET_CAIP2, SOLANA_DEVNET_CAIP2, SOLANA_TESTNET_CAIP2];
const base58Address = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const base58Key = /^[1-9A-HJ-NP-Za-km-z]{86,90}$/;

const evmAddress = /^0x[0-9a-fA-F]{40}$/;
const evmKey = /^0x[0-9a-fA-F]{64}$/;

/** What an option's settings look like on each kind of network: a row each, so reading an option never branches on it. */
interface NetworkKind {
  /** What is wrong with a network of this kind that the rail does not serve; undefined: it serves it. */
  unserved(network: string): string | undefined;
  address: RegExp;
  asset: string;
  payTo: string;
  key: RegExp;
  relayerKey: string;
  /** The service-wide PAY_TO and RELAYER_KEY are addresses and keys of this kind. */
  sharesDefaults: boolean;
  /** Its payments sign the token's EIP-712 domain (name and version). */
  typedData: boolean;
  /** It takes batch-settlement vouchers. */
  vouchers: boolean;
}

/** By CAIP-2 namespace. */
const networkKinds: Record<string, NetworkKind> = {
  eip155: {
    unserved: (network) => (/^eip155:[1-9]\d{0,18}$/.test(network) ? undefined : "is not an eip155:<chain id> network"),
    address: evmAddress,
    asset: "a 0x address",
    payTo: "a 0x address",
    key: evmKey,
    relayerKey: "a 0x 32-byte hex key",
    sharesDefaults: true,
    typedData: true,
    vouchers: true,
  },
  solana: {
    unserved: (network) =>
      svmNetworks.includes(network as never)
        ? undefined
        : `is not a Solana network @x402/svm serves (${svmNetworks.join(", ")})`,
    address: base58Address,
    asset: "a Solana mint address (base58)",
    payTo: "a Solana address (base58)",
    key: base58Key,
    relayerKey: "a Solana secret key (64 bytes, base58), the fee payer's",
    sharesDefaults: false,
    typedData: false,
    vouchers: false,
  },
};

const networkKindOf = (network: string | undefined): NetworkKind | undefined => {
  const namespace = /^([^:]+):/.exec(network ?? "")?.[1] ?? "";
  return Object.hasOwn(networkKinds, namespace) ? networkKinds[namespace] : undefined;
};

/** The variables this module reads: `X402_*`, `PAY_TO`, `FACILITATOR*`, `RPC_URL`, `RELAYER_KEY`. */
export type OptionEnv = Record<string, string | undefined>;

const varName = (name: string, field: string) => `X402_${name.toUpperCase().replace(/-/g, "_")}_${field}`;

function isUrl(value: string) {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * Reads every configured option. Throws one error listing each problem as `payment option "<name>": ...`.
 * `maxTimeoutSeconds` is the global `X402_MAX_TIMEOUT_SECONDS`.
 */
export function readOptions(env: OptionEnv, maxTimeoutSeconds: number): ConfiguredOption[] {
  const get = (k: string) => (env[k] === "" ? undefined : env[k]);
  const problems: string[] = [];
  const list = get("X402_OPTIONS");
  const names = list
    ? list
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
  const options: ConfiguredOption[] = [];

  if (!names) {
    // The single option of earlier releases: X402_NETWORK, X402_ASSET and the global facilitator settings.
    const network = get("X402_NETWORK") ?? "eip155:8453";
    const one = readOne(
      "default",
      {
        network,
        asset: get("X402_ASSET") ?? "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        assetName: get("X402_ASSET_NAME") ?? "USD Coin",
        assetVersion: get("X402_ASSET_VERSION") ?? "2",
        decimals: "6",
        payTo: get("PAY_TO"),
        facilitator: get("FACILITATOR"),
        facilitatorUrl: get("FACILITATOR_URL"),
        facilitatorAuth: get("FACILITATOR_AUTH"),
        rpcUrl: get("RPC_URL"),
        relayerKey: get("RELAYER_KEY"),
        batchAuthorizerKey: get("X402_BATCH_AUTHORIZER_KEY"),
        transferMethod: get("X402_TRANSFER_METHOD"),
      },
      maxTimeoutSeconds,
      (p) => problems.push(p.replace(/^payment option "default": /, "")),
      {
        batchAuthorizerKey: "X402_BATCH_AUTHORIZER_KEY",
        payTo: "PAY_TO",
        rpcUrl: "RPC_URL",
        relayerKey: "RELAYER_KEY",
        facilitatorUrl: "FACILITATOR_URL",
        network: "X402_NETWORK",
        asset: "X402_ASSET",
        transferMethod: "X402_TRANSFER_METHOD",
      },
    );
    if (one) options.push(one);
  } else {
    const seen = new Set<string>();
    for (const name of names) {
      if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(name)) {
        problems.push(`payment option "${name}": a name is lower-case letters, digits and dashes (X402_OPTIONS)`);
        continue;
      }
      if (seen.has(name)) {
        problems.push(`payment option "${name}": listed twice in X402_OPTIONS`);
        continue;
      }
      seen.add(name);
      const own = (field: string) => get(varName(name, field));
      const preset = presets[name]?.();
      const network = own("NETWORK") ?? preset?.network;
      const shared = networkKindOf(network)?.sharesDefaults;
      const one = readOne(
        name,
        {
          network,
          asset: own("ASSET") ?? preset?.asset,
          assetName: own("ASSET_NAME") ?? preset?.extra.name,
          assetVersion: own("ASSET_VERSION") ?? preset?.extra.version,
          decimals: own("DECIMALS") ?? String(preset?.decimals ?? 6),
          // PAY_TO is an EVM address: it is the default payee of the EVM options only.
          payTo: own("PAY_TO") ?? (shared ? get("PAY_TO") : undefined),
          facilitator: own("FACILITATOR") ?? (get("FACILITATOR") === "devnet" ? undefined : get("FACILITATOR")),
          facilitatorUrl: own("FACILITATOR_URL") ?? get("FACILITATOR_URL"),
          facilitatorAuth: own("FACILITATOR_AUTH") ?? get("FACILITATOR_AUTH"),
          // An RPC is one chain's: never shared between options.
          rpcUrl: own("RPC_URL"),
          relayerKey: own("RELAYER_KEY") ?? (shared ? get("RELAYER_KEY") : undefined),
          feePayer: own("FEE_PAYER"),
          batchAuthorizerKey: own("BATCH_AUTHORIZER_KEY"),
          transferMethod: own("TRANSFER_METHOD"),
          permit2Only: preset?.permit2Only,
        },
        maxTimeoutSeconds,
        (p) => problems.push(p),
        {
          payTo: `${varName(name, "PAY_TO")}${shared ? " (or PAY_TO)" : ""}`,
          rpcUrl: varName(name, "RPC_URL"),
          relayerKey: `${varName(name, "RELAYER_KEY")}${shared ? " (or RELAYER_KEY)" : ""}`,
          facilitatorUrl: `${varName(name, "FACILITATOR_URL")} (or FACILITATOR_URL)`,
          network: preset
            ? varName(name, "NETWORK")
            : `${varName(name, "NETWORK")} (not a preset: ${Object.keys(presets).join(", ")})`,
          asset: varName(name, "ASSET"),
          batchAuthorizerKey: varName(name, "BATCH_AUTHORIZER_KEY"),
          transferMethod: varName(name, "TRANSFER_METHOD"),
        },
      );
      if (one) options.push(one);
    }
    if (get("FACILITATOR") === "devnet")
      problems.push("FACILITATOR=devnet takes no X402_OPTIONS: the devnet offers its own chains");
  }

  const networks = new Map<string, string>();
  for (const o of options) {
    const key = `${o.option.network}|${o.option.asset.toLowerCase()}`;
    const other = networks.get(key);
    if (other) problems.push(`payment option "${o.name}": offers the same token on the same network as "${other}"`);
    networks.set(key, o.name);
  }
  // Payments are routed to a facilitator by network: two on one network would leave one option's unused.
  const settlers = new Map<string, ConfiguredOption>();
  for (const o of options) {
    const first = settlers.get(o.option.network);
    if (!first) settlers.set(o.option.network, o);
    else if (JSON.stringify(first.facilitator) !== JSON.stringify(o.facilitator))
      problems.push(
        `payment option "${o.name}": settles on ${o.option.network} through another facilitator than "${first.name}"; the options of one network share its facilitator`,
      );
  }
  const batchOn = get("X402_BATCH_SETTLEMENT") === "on";
  if (batchOn && options.length && !options.some((o) => o.batchAuthorizerKey))
    problems.push(
      `X402_BATCH_SETTLEMENT=on needs the key that authorizes claims and refunds on at least one EVM option: ${names ? "X402_<NAME>_BATCH_AUTHORIZER_KEY" : "X402_BATCH_AUTHORIZER_KEY"}`,
    );
  // Vouchers accepted and not yet claimed are the operator's money: they must outlive the process.
  if (batchOn && options.some((o) => o.batchAuthorizerKey) && !get("STORE_URL"))
    problems.push(
      "X402_BATCH_SETTLEMENT=on needs STORE_URL (Redis): vouchers accepted but not yet claimed would be lost with the process",
    );
  if (problems.length) throw new Error(`Invalid payment options:\n  ${problems.join("\n  ")}`);
  return batchOn ? options.map(withVouchers) : options;
}

/** The channels' withdraw delay: the scheme's shortest, so a payer the service stops answering waits least. */
export const BATCH_WITHDRAW_DELAY = 900;

/** An option whose authorizer key is configured takes batch-settlement vouchers beside `exact`. */
function withVouchers(o: ConfiguredOption): ConfiguredOption {
  if (!o.batchAuthorizerKey) return o;
  const receiverAuthorizer = privateKeyToAccount(o.batchAuthorizerKey).address;
  return { ...o, option: { ...o.option, batch: { receiverAuthorizer, withdrawDelay: BATCH_WITHDRAW_DELAY } } };
}

/**
 * `exact` through Permit2, as @x402/evm's server writes it: the token's EIP-712 domain only when configured (a token
 * with EIP-2612, whose permit the client may sign for Permit2's allowance).
 */
const permit2Extra = (raw: RawOption): Record<string, string> => ({
  ...(raw.assetName && raw.assetVersion ? { name: raw.assetName, version: raw.assetVersion } : {}),
  assetTransferMethod: "permit2",
});

interface RawOption {
  network?: string;
  asset?: string;
  assetName?: string;
  assetVersion?: string;
  decimals?: string;
  payTo?: string;
  facilitator?: string;
  facilitatorUrl?: string;
  facilitatorAuth?: string;
  rpcUrl?: string;
  relayerKey?: string;
  feePayer?: string;
  batchAuthorizerKey?: string;
  /** `eip3009` (the default) or `permit2`: how an `exact` payment moves the token. */
  transferMethod?: string;
  permit2Only?: boolean;
}

type Names = Record<
  "payTo" | "rpcUrl" | "relayerKey" | "facilitatorUrl" | "network" | "asset" | "batchAuthorizerKey" | "transferMethod",
  string
>;

function readOne(
  name: string,
  raw: RawOption,
  maxTimeoutSeconds: number,
  problem: (p: string) => void,
  vars: Names,
): ConfiguredOption | undefined {
  const before = { count: 0 };
  const fail = (message: string) => {
    before.count++;
    problem(`payment option "${name}": ${message}`);
  };
  const { network } = raw;
  const net = networkKindOf(network);
  const unserved = network && (net ? net.unserved(network) : networkKinds.eip155.unserved(network));
  if (!network) fail(`${vars.network} is required`);
  else if (unserved) fail(`${vars.network} ${network} ${unserved}`);
  if (!raw.asset) fail(`${vars.asset} is required`);
  else if (net && !net.address.test(raw.asset)) fail(`${vars.asset} ${raw.asset} is not ${net.asset}`);
  const decimals = Number(raw.decimals);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36)
    fail(`decimals ${raw.decimals} is not an integer from 0 to 36`);
  const permit2 = (raw.transferMethod ?? (raw.permit2Only ? "permit2" : "eip3009")) === "permit2";
  if (raw.transferMethod && !net?.typedData)
    fail(`${vars.transferMethod}: a transfer method is chosen for EVM tokens only`);
  else if (raw.transferMethod && raw.transferMethod !== "eip3009" && raw.transferMethod !== "permit2")
    fail(`${vars.transferMethod} ${raw.transferMethod} is not eip3009 or permit2`);
  else if (raw.permit2Only && !permit2)
    fail(
      `${vars.transferMethod}: this token has no EIP-3009 (transferWithAuthorization); it is paid with permit2 only`,
    );
  // A Permit2 payment signs Permit2's domain, not the token's: its name and version are needed only for EIP-3009.
  if (net?.typedData && !permit2 && (!raw.assetName || !raw.assetVersion))
    fail("the token's EIP-712 name and version are required (ASSET_NAME, ASSET_VERSION)");
  if (permit2 && raw.batchAuthorizerKey)
    fail(`${vars.batchAuthorizerKey}: batch-settlement deposits are EIP-3009 transfers, which a permit2 token lacks`);
  if (!raw.payTo) fail(`${vars.payTo} is required: the address that receives the payments`);
  else if (net && !net.address.test(raw.payTo)) fail(`${vars.payTo} ${raw.payTo} is not ${net.payTo}`);
  if (raw.feePayer && !base58Address.test(raw.feePayer))
    fail(`the fee payer ${raw.feePayer} is not a Solana address (base58)`);
  if (raw.rpcUrl && !isUrl(raw.rpcUrl)) fail(`${vars.rpcUrl} ${raw.rpcUrl} is not an http(s) URL`);
  if (raw.batchAuthorizerKey && !net?.vouchers)
    fail(`${vars.batchAuthorizerKey}: batch-settlement vouchers are an EVM scheme`);
  else if (raw.batchAuthorizerKey && !evmKey.test(raw.batchAuthorizerKey))
    fail(`${vars.batchAuthorizerKey} is not a 0x 32-byte hex key`);

  const kind = raw.facilitator ?? (raw.facilitatorUrl ? "remote" : raw.relayerKey ? "local" : undefined);
  let facilitator: OptionFacilitator | undefined;
  if (kind === "remote") {
    if (!raw.facilitatorUrl) fail(`a remote facilitator needs ${vars.facilitatorUrl}`);
    else if (!isUrl(raw.facilitatorUrl)) fail(`${vars.facilitatorUrl} ${raw.facilitatorUrl} is not an http(s) URL`);
    else facilitator = { kind: "remote", url: raw.facilitatorUrl, auth: raw.facilitatorAuth };
  } else if (kind === "local") {
    if (!raw.rpcUrl) fail(`a local facilitator needs ${vars.rpcUrl}`);
    if (!raw.relayerKey) fail(`a local facilitator needs ${vars.relayerKey}, the key that pays the gas`);
    else if (net && !net.key.test(raw.relayerKey)) fail(`${vars.relayerKey} is not ${net.relayerKey}`);
    if (raw.rpcUrl && raw.relayerKey) facilitator = { kind: "local", rpcUrl: raw.rpcUrl, relayerKey: raw.relayerKey };
  } else if (kind === undefined) {
    fail(`no facilitator: set ${vars.facilitatorUrl}, or ${vars.relayerKey} and ${vars.rpcUrl} to settle in process`);
  } else {
    fail(`facilitator ${kind} is not local or remote`);
  }
  if (before.count || !facilitator) return undefined;
  return {
    name,
    option: {
      network: network!,
      asset: raw.asset!,
      payTo: raw.payTo!,
      decimals,
      extra: !net?.typedData ? {} : permit2 ? permit2Extra(raw) : { name: raw.assetName!, version: raw.assetVersion! },
      maxTimeoutSeconds,
    },
    facilitator,
    rpcUrl: raw.rpcUrl,
    feePayer: raw.feePayer,
    ...(raw.batchAuthorizerKey ? { batchAuthorizerKey: raw.batchAuthorizerKey as `0x${string}` } : {}),
  };
}
