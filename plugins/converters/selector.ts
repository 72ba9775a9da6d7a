import * as v from "valibot";
import { keccak256, parseAbiItem, toBytes } from "viem";
import { formatAbiItem, formatAbiParams } from "viem/utils";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

const kinds = ["function", "event", "error"] as const;
type Kind = (typeof kinds)[number];
interface Parsed {
  type: Kind;
  inputs: readonly { name?: string; type: string; indexed?: boolean }[];
}

/** Reads a signature with or without its keyword; `indexed` parameters make a bare one an event. */
function parseSignature(text: string): Parsed {
  const trimmed = text.trim().replace(/;$/, "");
  const keyword = /^(function|event|error)\s/.exec(trimmed)?.[1];
  const kind = keyword ?? (/\bindexed\b/.test(trimmed) ? "event" : "function");
  try {
    return parseAbiItem(keyword ? trimmed : `${kind} ${trimmed}`) as unknown as Parsed;
  } catch (error) {
    const reason = ((error as Error).message.split("\n")[0] ?? "").trim();
    throw fieldError("signature", `Not a Solidity function, event or error signature: ${reason}`);
  }
}

export default defineEndpoint({
  name: "selector",
  method: "GET",
  price: "$0.001",
  summary: "EVM function selector and event topic from a Solidity signature",
  description:
    "Accepts a bare signature (transfer(address,uint256)) or a declaration with names, modifiers and returns (function transfer(address to, uint amount) external returns (bool)). Types are normalized (uint -> uint256, tuples expanded) before hashing with keccak256.",
  input: v.object({
    signature: v.pipe(
      v.string(),
      v.minLength(3),
      v.maxLength(2000),
      v.description("Function, event or error signature"),
    ),
  }),
  output: v.object({
    kind: v.picklist(kinds),
    signature: v.pipe(v.string(), v.description("Canonical signature that is hashed, e.g. transfer(address,uint256)")),
    selector: v.pipe(
      v.string(),
      v.description("First 4 bytes of keccak256(signature): the function or error selector"),
    ),
    topic: v.pipe(v.string(), v.description("Full keccak256(signature): topic0 of an event log")),
    readable: v.pipe(v.string(), v.description("The signature with parameter names")),
    inputs: v.array(v.object({ name: v.nullable(v.string()), type: v.string(), indexed: v.boolean() })),
  }),
  example: {
    input: { signature: "function transfer(address to, uint amount) external returns (bool)" },
    output: {
      kind: "function",
      signature: "transfer(address,uint256)",
      selector: "0xa9059cbb",
      topic: "0xa9059cbb2ab09eb219583f4a59a5d0623ade346d962bcd4e46b11da047c9049b",
      readable: "transfer(address to, uint256 amount)",
      inputs: [
        { name: "to", type: "address", indexed: false },
        { name: "amount", type: "uint256", indexed: false },
      ],
    },
  },
  handler({ input }) {
    const item = parseSignature(input.signature);
    const signature = formatAbiItem(item as never);
    const topic = keccak256(toBytes(signature));
    return {
      kind: item.type,
      signature,
      selector: topic.slice(0, 10),
      topic,
      readable: formatAbiItem(item as never, { includeName: true }),
      inputs: item.inputs.map((p) => ({
        name: p.name || null,
        type: formatAbiParams([p as never]),
        indexed: p.indexed === true,
      })),
    };
  },
});
