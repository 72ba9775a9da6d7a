import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainField } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";
import { detectProxy } from "./_proxy.ts";
import { ProxyOutput } from "./_proxy-output.ts";

export default defineEndpoint({
  name: "proxy-detect",
  method: "GET",
  price: "$0.005",
  summary:
    "Is a contract a proxy? Its pattern (EIP-1967, beacon, UUPS, minimal clone, Safe, diamond), implementation and admin",
  description:
    "Read from the chain's node: the standard storage slots (EIP-1967 implementation, beacon and admin; EIP-1822 PROXIABLE; OpenZeppelin's legacy slot), the EIP-1167 clone bytecode, Safe's masterCopy() and a diamond's facetAddresses(). Implementations can be upgraded, so answers are cached only 10 minutes.",
  input: v.object({ address: addressField("Contract address"), chain: chainField() }),
  output: v.object({ chain: v.string(), address: v.string(), ...ProxyOutput.entries }),
  example: {
    input: { address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      isContract: true,
      isProxy: true,
      standard: "openzeppelin-legacy",
      implementation: "0x43506849D7C04F9138D1A2050bbF3A0c054402dd",
      implementationIsContract: true,
      admin: "0x807a96288A1A408dBC13DE2b1d087d10356395d2",
      beacon: null,
      facets: [],
    },
  },
  cacheTtl: 600,
  upstreams: NODES,
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    return readNode(upstream, input.chain, async (client) => {
      const info = await detectProxy(client, address);
      const implementationCode = info.implementation
        ? await client.getCode({ address: info.implementation })
        : undefined;
      return {
        chain: input.chain,
        address,
        ...info,
        implementationIsContract: info.implementation
          ? Boolean(implementationCode && implementationCode !== "0x")
          : null,
      };
    });
  },
});
