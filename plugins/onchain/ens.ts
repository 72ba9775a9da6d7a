import * as v from "valibot";
import { normalize } from "viem/ens";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, notFound } from "../../core/runtime/errors.ts";
import { forwardLookup, reverseLookup, textKeys, textRecords } from "./_ens.ts";
import { checksummed } from "../_shared/onchain-inputs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";

const Text = v.nullable(v.string());

export default defineEndpoint({
  name: "ens",
  method: "GET",
  price: "$0.005",
  summary: "Resolve an ENS name to its address and records, or an address to its primary ENS name (checked both ways)",
  description:
    "Read from the chain's node: the ENS registry gives the name's resolver, the resolver its address and text records (avatar, url, description, email, twitter, github, telegram, discord). Names are normalised (ENSIP-15) first. Given an address, its reverse record gives the primary name, which counts only when the name resolves back to the same address (`primary`). Names served off-chain through wildcard resolvers (CCIP-read) are not followed. An unregistered name, or an address without a primary name, is a 404.",
  input: v.object({
    name: v.pipe(
      v.string(),
      v.maxLength(255),
      v.regex(
        /^(0x[0-9a-fA-F]{40}|[^\s./?#@:]+(\.[^\s./?#@:]+)+)$/,
        "must be an ENS name such as vitalik.eth, or a 0x address for a reverse lookup",
      ),
      v.description("ENS name (vitalik.eth) or a 0x address (reverse lookup)"),
    ),
    chain: v.optional(
      v.pipe(
        v.picklist(["ethereum", "sepolia"], "must be one of: ethereum, sepolia"),
        v.description("Where the ENS registry is read: ethereum or sepolia"),
      ),
      "ethereum",
    ),
  }),
  output: v.object({
    chain: v.string(),
    lookup: v.picklist(["forward", "reverse"]),
    name: v.pipe(v.string(), v.description("Normalised name")),
    address: v.pipe(
      v.nullable(v.string()),
      v.description("What the name resolves to (checksummed); null when it sets none"),
    ),
    resolver: v.string(),
    primary: v.pipe(
      v.boolean(),
      v.description("The address's reverse record names this name, and the name resolves back to the address"),
    ),
    records: v.object(
      Object.fromEntries(textKeys.map((k) => [k, Text])) as Record<(typeof textKeys)[number], typeof Text>,
    ),
  }),
  example: {
    input: { name: "vitalik.eth", chain: "ethereum" },
    output: {
      chain: "ethereum",
      lookup: "forward",
      name: "vitalik.eth",
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      resolver: "0x231b0Ee14048e9dCcD1d247744d114a4EB5E8E63",
      primary: true,
      records: {
        avatar: "https://euc.li/vitalik.eth",
        url: "https://vitalik.ca",
        description: null,
        email: null,
        "com.twitter": null,
        "com.github": "vbuterin",
        "org.telegram": null,
        "com.discord": null,
      },
    },
  },
  cacheTtl: 600,
  upstreams: NODES,
  async handler({ input, upstream }) {
    const reverse = input.name.startsWith("0x") && input.name.length === 42;
    const queried = reverse ? checksummed(input.name) : undefined;
    let name: string | null = null;
    if (!reverse) name = normalized(input.name);
    return readNode(upstream, input.chain, async (client) => {
      if (queried) {
        const claimed = await reverseLookup(client, queried);
        if (!claimed) throw notFound(`${queried} has no primary ENS name on ${input.chain}`);
        name = normalized(claimed);
      }
      const forward = await forwardLookup(client, name!);
      if (!forward.resolver) throw notFound(`${name} is not registered or has no resolver on ${input.chain}`);
      const [records, primary] = await Promise.all([
        textRecords(client, forward.resolver, name!),
        queried
          ? Promise.resolve(forward.address === queried)
          : forward.address
            ? reverseLookup(client, forward.address).then((n) => n === name)
            : Promise.resolve(false),
      ]);
      return {
        chain: input.chain,
        lookup: reverse ? ("reverse" as const) : ("forward" as const),
        name: name!,
        address: forward.address,
        resolver: forward.resolver,
        primary,
        records,
      };
    });
  },
});

function normalized(name: string): string {
  try {
    return normalize(name);
  } catch (error) {
    throw badRequest(`${name} is not a valid ENS name: ${(error as Error).message}`);
  }
}
