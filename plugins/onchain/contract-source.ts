import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { AbiOutput } from "./_abi.ts";
import { chainField, chainInfo } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { proxyOf, sourcifyContract, sourcifyPage } from "./_sourcify.ts";

const optimizerOf = (settings: Record<string, unknown> | undefined) => {
  const optimizer = settings?.optimizer as { enabled?: boolean; runs?: number } | undefined;
  return optimizer
    ? { enabled: Boolean(optimizer.enabled), runs: typeof optimizer.runs === "number" ? optimizer.runs : null }
    : null;
};

export default defineEndpoint({
  name: "contract-source",
  method: "GET",
  price: "$0.005",
  summary: "Verified source code of a contract: every source file, compiler and optimizer settings, ABI, match type",
  description:
    "From Sourcify's verified-contract repository (v2 lookup). `match` is exact_match when the deployed bytecode, metadata included, is identical to the compiled source. A contract Sourcify has not verified is a 404. For a proxy, `proxy.implementations` names the contracts whose source to ask for next.",
  input: v.object({ address: addressField("Contract address"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    match: v.pipe(v.string(), v.description("exact_match or match")),
    name: v.nullable(v.string()),
    fullyQualifiedName: v.nullable(v.string()),
    language: v.nullable(v.string()),
    compilerVersion: v.nullable(v.string()),
    evmVersion: v.nullable(v.string()),
    optimizer: v.nullable(v.object({ enabled: v.boolean(), runs: v.nullable(v.number()) })),
    verifiedAt: v.nullable(v.string()),
    sources: v.array(v.object({ path: v.string(), content: v.string() })),
    abi: AbiOutput,
    proxy: v.object({
      isProxy: v.boolean(),
      type: v.nullable(v.string()),
      implementations: v.array(v.object({ address: v.string(), name: v.nullable(v.string()) })),
    }),
    url: v.pipe(v.string(), v.description("The contract's page on Sourcify's repository")),
  }),
  example: {
    input: { address: "0x6B175474E89094C44Da98b954EedeAC495271d0F", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
      match: "exact_match",
      name: "Dai",
      fullyQualifiedName: "/nix/store/8xb41r4qd0cjb63wcrxf1qmfg88p0961-dss-6fd7de0/src/dai.sol:Dai",
      language: "Solidity",
      compilerVersion: "0.5.12+commit.7709ece9",
      evmVersion: "petersburg",
      optimizer: { enabled: false, runs: 200 },
      verifiedAt: "2024-07-31T09:04:53Z",
      sources: [
        {
          path: "/nix/store/8xb41r4qd0cjb63wcrxf1qmfg88p0961-dss-6fd7de0/src/dai.sol",
          content:
            "// hevm: flattened sources of /nix/store/8xb41r4qd0cjb63wcrxf1qmfg88p0961-dss-6fd7de0/src/dai.sol\npragma solidity =0.5.12;\n",
        },
      ],
      abi: [
        {
          type: "function",
          name: "totalSupply",
          inputs: [],
          outputs: [{ name: "", type: "uint256", internalType: "uint256" }],
          stateMutability: "view",
          constant: true,
          payable: false,
        },
      ],
      proxy: { isProxy: false, type: null, implementations: [] },
      url: "https://repo.sourcify.dev/1/0x6B175474E89094C44Da98b954EedeAC495271d0F",
    },
  },
  cacheTtl: 86_400,
  upstreams: ["sourcify"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const chainId = chainInfo(input.chain).id;
    const found = await sourcifyContract(upstream("sourcify"), chainId, address, [
      "sources",
      "abi",
      "compilation",
      "proxyResolution",
    ]);
    if (!found?.match) throw notFound(`Sourcify has no verified source for ${address} on ${input.chain}`);
    const compilation = found.compilation ?? {};
    return {
      chain: input.chain,
      address,
      match: found.match,
      name: compilation.name ?? null,
      fullyQualifiedName: compilation.fullyQualifiedName ?? null,
      language: compilation.language ?? null,
      compilerVersion: compilation.compilerVersion ?? null,
      evmVersion:
        typeof compilation.compilerSettings?.evmVersion === "string" ? compilation.compilerSettings.evmVersion : null,
      optimizer: optimizerOf(compilation.compilerSettings),
      verifiedAt: found.verifiedAt ?? null,
      sources: Object.entries(found.sources ?? {}).map(([path, file]) => ({ path, content: file.content })),
      abi: (found.abi ?? []) as unknown as Record<string, unknown>[],
      proxy: proxyOf(found.proxyResolution),
      url: sourcifyPage(chainId, address),
    };
  },
});
