import * as v from "valibot";
import type { Hex } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { decodeCalldata, lookupSignatures, selectorOf } from "./_decode.ts";
import { hexBytesField } from "../_shared/onchain-inputs.ts";
import { Arg } from "./_tx-shapes.ts";

export default defineEndpoint({
  name: "decode-calldata",
  method: "GET",
  price: "$0.005",
  summary: "Decode EVM calldata: the function selector, its known signatures and the decoded arguments",
  description:
    "Without `signature`, candidate signatures for the selector come from Sourcify's signature database (OpenChain-compatible). Every candidate that re-encodes to exactly the given bytes is returned, since different functions can share a selector. With `signature`, nothing is looked up.",
  input: v.object({
    data: hexBytesField("Calldata: 0x, 4-byte selector, ABI-encoded arguments", 65_536, 4),
    signature: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(1_000),
        v.regex(/^[A-Za-z_$][\w$]*\(.*\)$/, "must look like transfer(address,uint256)"),
        v.description("Function signature to decode with, e.g. transfer(address to, uint256 amount); skips the lookup"),
      ),
    ),
  }),
  output: v.object({
    selector: v.string(),
    signatures: v.pipe(v.array(v.string()), v.description("Every signature known for the selector")),
    decoded: v.pipe(
      v.array(v.object({ signature: v.string(), args: v.array(Arg) })),
      v.description("Signatures that decode the data exactly"),
    ),
  }),
  example: {
    input: {
      data: "0xa9059cbb000000000000000000000000d8da6bf26964af9d7eed9e03e53415d37aa960450000000000000000000000000000000000000000000000000000000005f5e100",
    },
    output: {
      selector: "0xa9059cbb",
      signatures: ["transfer(address,uint256)"],
      decoded: [
        {
          signature: "transfer(address,uint256)",
          args: [
            { name: null, type: "address", value: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045" },
            { name: null, type: "uint256", value: "100000000" },
          ],
        },
      ],
    },
  },
  cacheTtl: 86_400,
  upstreams: ["sourcify-4byte"],
  async handler({ input, upstream }) {
    const data = input.data as Hex;
    const selector = selectorOf(data).toLowerCase() as Hex;
    const signatures = input.signature
      ? [input.signature]
      : ((await lookupSignatures(upstream("sourcify-4byte"), [selector])).functions.get(selector) ?? []);
    return { selector, signatures, decoded: decodeCalldata(data, signatures) };
  },
});
