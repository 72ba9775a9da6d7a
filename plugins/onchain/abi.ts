import * as v from "valibot";
import type { Abi } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { AbiOutput, AbiSummaryOutput, abiSummary } from "./_abi.ts";
import { chainField, chainInfo } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { proxyOf, sourcifyContract, sourcifyPage } from "./_sourcify.ts";

const Verified = v.object({
  address: v.string(),
  match: v.pipe(v.string(), v.description("exact_match or match: the ABI comes from verified source")),
  abi: AbiOutput,
  ...AbiSummaryOutput.entries,
  url: v.string(),
});

export default defineEndpoint({
  name: "abi",
  method: "GET",
  price: "$0.005",
  summary:
    "ABI of a verified contract with its function selectors and event topics; for a proxy, its implementation's ABI too",
  description:
    "From Sourcify's verified-contract repository. Every ABI here comes from verified source (provenance `sourcify`), never guessed from bytecode. A contract Sourcify has not verified is a 404. When Sourcify resolves the contract as a proxy, `implementation` holds the first implementation's ABI (null when that one is not verified).",
  input: v.object({ address: addressField("Contract address"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    ...Verified.entries,
    provenance: v.literal("sourcify"),
    proxy: v.object({
      isProxy: v.boolean(),
      type: v.nullable(v.string()),
      implementations: v.array(v.object({ address: v.string(), name: v.nullable(v.string()) })),
    }),
    implementation: v.pipe(v.nullable(Verified), v.description("The proxy's implementation, when it is verified")),
  }),
  example: {
    input: { address: "0x6B175474E89094C44Da98b954EedeAC495271d0F", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
      match: "exact_match",
      abi: [
        {
          type: "function",
          name: "totalSupply",
          inputs: [],
          outputs: [{ name: "", type: "uint256", internalType: "uint256" }],
          stateMutability: "view",
        },
      ],
      functions: [{ signature: "totalSupply()", selector: "0x18160ddd", stateMutability: "view" }],
      events: [],
      url: "https://repo.sourcify.dev/1/0x6B175474E89094C44Da98b954EedeAC495271d0F",
      provenance: "sourcify",
      proxy: { isProxy: false, type: null, implementations: [] },
      implementation: null,
    },
  },
  cacheTtl: 86_400,
  upstreams: ["sourcify"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const chainId = chainInfo(input.chain).id;
    const api = upstream("sourcify");
    const found = await sourcifyContract(api, chainId, address, ["abi", "proxyResolution"]);
    if (!found?.match) throw notFound(`Sourcify has no verified ABI for ${address} on ${input.chain}`);
    const proxy = proxyOf(found.proxyResolution);
    const target = proxy.isProxy ? proxy.implementations[0]?.address : undefined;
    const implementation = target ? await sourcifyContract(api, chainId, target, ["abi"]) : null;
    const verified = (at: string, match: string, abi: Abi | undefined) => ({
      address: at,
      match,
      abi: (abi ?? []) as unknown as Record<string, unknown>[],
      ...abiSummary(abi ?? []),
      url: sourcifyPage(chainId, at),
    });
    return {
      chain: input.chain,
      ...verified(address, found.match, found.abi),
      provenance: "sourcify" as const,
      proxy,
      implementation:
        target && implementation?.match ? verified(target, implementation.match, implementation.abi) : null,
    };
  },
});
