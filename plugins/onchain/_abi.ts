import {
  toEventSelector,
  toFunctionSelector,
  toFunctionSignature,
  toEventSignature,
  type Abi,
  type AbiEvent,
  type AbiFunction,
} from "viem";
import * as v from "valibot";

/** The function and event signatures of an ABI with their selectors and topics, for agents that match calldata and logs. */
export function abiSummary(abi: Abi) {
  const functions = abi.filter((item): item is AbiFunction => item.type === "function");
  const events = abi.filter((item): item is AbiEvent => item.type === "event");
  return {
    functions: functions.map((f) => ({
      signature: toFunctionSignature(f),
      selector: toFunctionSelector(f),
      stateMutability: f.stateMutability,
    })),
    events: events.map((e) => ({ signature: toEventSignature(e), topic: toEventSelector(e) })),
  };
}

export const AbiSummaryOutput = v.object({
  functions: v.array(
    v.object({
      signature: v.string(),
      selector: v.pipe(v.string(), v.description("4-byte selector")),
      stateMutability: v.string(),
    }),
  ),
  events: v.array(
    v.object({ signature: v.string(), topic: v.pipe(v.string(), v.description("topic0 of the event's logs")) }),
  ),
});

/** A JSON ABI as Sourcify returns it: kept as given (an array of ABI items). */
export const AbiOutput = v.pipe(v.array(v.record(v.string(), v.unknown())), v.description("The contract's JSON ABI"));
