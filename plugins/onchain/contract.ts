import * as v from "valibot";
import { getAddress, keccak256, parseAbi, size, type Address, type PublicClient } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { chainField, chainInfo } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { NODES, probe, readNode } from "../_shared/chain-node.ts";
import { detectProxy } from "./_proxy.ts";
import { sourcifyContract, sourcifyPage } from "./_sourcify.ts";
import { ProxyOutput } from "./_proxy-output.ts";

const probes = parseAbi([
  "function supportsInterface(bytes4 id) view returns (bool)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function owner() view returns (address)",
]);
const standards = ["erc20", "erc721", "erc1155"] as const;

export default defineEndpoint({
  name: "contract",
  method: "GET",
  price: "$0.02",
  summary:
    "Profile of a contract: code size and hash, proxy pattern, token standard, owner, and whether its source is verified",
  description:
    "Code, storage slots and probes (ERC-165 supportsInterface, decimals(), owner()) come from the chain's node; verification (match, contract name, compiler) from Sourcify. An address without code is a 404.",
  input: v.object({ address: addressField("Contract address"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    codeSize: v.pipe(v.number(), v.description("Runtime bytecode size in bytes")),
    codeHash: v.string(),
    tokenStandard: v.pipe(
      v.nullable(v.picklist(standards)),
      v.description("Detected by ERC-165 (721, 1155) or ERC-20 calls"),
    ),
    owner: v.pipe(v.nullable(v.string()), v.description("owner(), when the contract has one")),
    proxy: v.object({ ...ProxyOutput.entries }),
    verified: v.boolean(),
    verification: v.nullable(
      v.object({
        match: v.pipe(v.string(), v.description("exact_match (bytecode identical, metadata included) or match")),
        name: v.nullable(v.string()),
        language: v.nullable(v.string()),
        compilerVersion: v.nullable(v.string()),
        verifiedAt: v.nullable(v.string()),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { address: "0x6B175474E89094C44Da98b954EedeAC495271d0F", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
      codeSize: 7904,
      codeHash: "0x4e36f96ee1667a663dfaac57c4d185a0e369a3a217e0079d49620f34f85d1ac7",
      tokenStandard: "erc20",
      owner: null,
      proxy: {
        isContract: true,
        isProxy: false,
        standard: null,
        implementation: null,
        implementationIsContract: null,
        admin: null,
        beacon: null,
        facets: [],
      },
      verified: true,
      verification: {
        match: "exact_match",
        name: "Dai",
        language: "Solidity",
        compilerVersion: "0.5.12+commit.7709ece9",
        verifiedAt: "2024-07-31T09:04:53Z",
        url: "https://repo.sourcify.dev/1/0x6B175474E89094C44Da98b954EedeAC495271d0F",
      },
    },
  },
  cacheTtl: 3600,
  upstreams: [...NODES, "sourcify"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const chainId = chainInfo(input.chain).id;
    const onChain = await readNode(upstream, input.chain, async (client) => {
      const code = await client.getCode({ address });
      if (!code || code === "0x") throw notFound(`no contract at ${address} on ${input.chain}`);
      const [proxy, tokenStandard, owner] = await Promise.all([
        detectProxy(client, address, code),
        detectStandard(client, address),
        readOwner(client, address),
      ]);
      const implementationCode = proxy.implementation
        ? await client.getCode({ address: proxy.implementation })
        : undefined;
      return {
        codeSize: size(code),
        codeHash: keccak256(code),
        tokenStandard,
        owner,
        proxy: {
          ...proxy,
          implementationIsContract: proxy.implementation
            ? Boolean(implementationCode && implementationCode !== "0x")
            : null,
        },
      };
    });
    const verified = await sourcifyContract(upstream("sourcify"), chainId, address, ["compilation"]);
    return {
      chain: input.chain,
      address,
      ...onChain,
      verified: Boolean(verified?.match),
      verification: verified?.match
        ? {
            match: verified.match,
            name: verified.compilation?.name ?? null,
            language: verified.compilation?.language ?? null,
            compilerVersion: verified.compilation?.compilerVersion ?? null,
            verifiedAt: verified.verifiedAt ?? null,
            url: sourcifyPage(chainId, address),
          }
        : null,
    };
  },
});

async function detectStandard(client: PublicClient, address: Address) {
  const supports = (id: `0x${string}`) =>
    probe(client.readContract({ address, abi: probes, functionName: "supportsInterface", args: [id] }), false);
  const [erc721, erc1155] = await Promise.all([supports("0x80ac58cd"), supports("0xd9b67a26")]);
  if (erc721) return "erc721" as const;
  if (erc1155) return "erc1155" as const;
  const [decimals, supply] = await Promise.all(
    (["decimals", "totalSupply"] as const).map((functionName) =>
      probe(
        client.readContract({ address, abi: probes, functionName }).then(() => true),
        false,
      ),
    ),
  );
  return decimals && supply ? ("erc20" as const) : null;
}

async function readOwner(client: PublicClient, address: Address) {
  const owner = await probe(client.readContract({ address, abi: probes, functionName: "owner" }), undefined);
  return owner ? getAddress(owner) : null;
}
