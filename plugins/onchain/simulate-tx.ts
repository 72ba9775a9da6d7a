import * as v from "valibot";
import { BaseError, getAddress, RawContractError, type Address, type Hex } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainField } from "../_shared/chains.ts";
import { decodeStandardEvent, lookupSignatures } from "./_decode.ts";
import { addressField, blockField, checksummed, hexBytesField } from "../_shared/onchain-inputs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";
import { decodeRevert, Revert } from "./_revert.ts";
import { Transfer, TxEvent } from "./_tx-shapes.ts";

export default defineEndpoint({
  name: "simulate-tx",
  method: "POST",
  price: "$0.01",
  summary:
    "Simulate a transaction without sending it: success or the decoded revert reason, gas used, return data, events and token transfers",
  description:
    "Runs the call on the chain's node against the chosen block (eth_simulateV1 where the node has it, for gas and logs; eth_call and eth_estimateGas otherwise). Revert reasons Error(string) and Panic(uint256) are decoded locally, custom errors through Sourcify's signature database. Fields come in the JSON body or, equally, in the query string.",
  input: v.object({
    chain: chainField(),
    from: v.optional(addressField("Sender; the zero address when absent")),
    to: addressField("Contract or account called"),
    data: v.optional(hexBytesField("Calldata", 131_072), "0x"),
    value: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{1,78}$/, "must be wei as a decimal integer"),
        v.description("Wei sent with the call, decimal string"),
      ),
      "0",
    ),
    gas: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(21_000),
        v.maxValue(100_000_000),
        v.description("Gas limit for the simulation"),
      ),
    ),
    block: v.optional(blockField("Block to simulate on top of"), "latest"),
  }),
  output: v.object({
    chain: v.string(),
    block: v.string(),
    success: v.boolean(),
    gasUsed: v.pipe(v.nullable(v.string()), v.description("Gas the call used (or would need)")),
    returnData: v.pipe(v.string(), v.description("Raw return data, or the revert data")),
    revert: v.nullable(Revert),
    events: v.pipe(
      v.array(TxEvent),
      v.description("Logs the call would emit (empty when the node lacks eth_simulateV1)"),
    ),
    transfers: v.array(Transfer),
  }),
  example: {
    input: {
      chain: "ethereum",
      from: "0x0000000000000000000000000000000000000001",
      to: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      data: "0xa9059cbb000000000000000000000000d8da6bf26964af9d7eed9e03e53415d37aa960450000000000000000000000000000000000000000000000000000000005f5e100",
    },
    output: {
      chain: "ethereum",
      block: "latest",
      success: false,
      gasUsed: null,
      returnData:
        "0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000002645524332303a207472616e7366657220616d6f756e7420657863656564732062616c616e63650000000000000000000000000000000000000000000000000000",
      revert: {
        selector: "0x08c379a0",
        signature: "Error(string)",
        reason: "ERC20: transfer amount exceeds balance",
        args: [{ name: null, type: "string", value: "ERC20: transfer amount exceeds balance" }],
      },
      events: [],
      transfers: [],
    },
  },
  upstreams: [...NODES, "sourcify-4byte"],
  async handler({ input, upstream }) {
    const call = {
      account: (input.from ? checksummed(input.from) : undefined) as Address | undefined,
      to: checksummed(input.to),
      data: input.data as Hex,
      value: BigInt(input.value),
      gas: input.gas === undefined ? undefined : BigInt(input.gas),
    };
    const block = /^\d+$/.test(input.block)
      ? { blockNumber: BigInt(input.block) }
      : { blockTag: input.block as "latest" };
    const outcome = await readNode(upstream, input.chain, async (client) => {
      try {
        const { results } = await client.simulateCalls({
          ...block,
          account: call.account,
          calls: [{ to: call.to, data: call.data, value: call.value }],
        });
        const [result] = results;
        return {
          success: result.status === "success",
          gasUsed: result.gasUsed,
          returnData: result.data,
          logs: result.logs ?? [],
        };
      } catch (error) {
        if (!unsupported(error)) throw error;
      }
      try {
        const [returned, gasUsed] = await Promise.all([
          client.call({ ...call, ...block }),
          client.estimateGas({ ...call, ...block }),
        ]);
        return { success: true, gasUsed, returnData: returned.data ?? "0x", logs: [] };
      } catch (error) {
        const revert =
          error instanceof BaseError
            ? (error.walk((e) => e instanceof RawContractError) as RawContractError | null)
            : null;
        if (!revert) throw error;
        return {
          success: false,
          gasUsed: null,
          returnData: (typeof revert.data === "string" ? revert.data : revert.data?.data) ?? "0x",
          logs: [],
        };
      }
    });
    const standard = outcome.logs.map((log) => decodeStandardEvent(log));
    return {
      chain: input.chain,
      block: input.block,
      success: outcome.success,
      gasUsed: outcome.gasUsed === null ? null : outcome.gasUsed.toString(),
      returnData: outcome.returnData,
      revert: outcome.success
        ? null
        : await decodeRevert(outcome.returnData as Hex, (selector) =>
            lookupSignatures(upstream("sourcify-4byte"), [selector]),
          ),
      events: outcome.logs.map((log, i) => ({
        logIndex: i,
        address: getAddress(log.address),
        topic0: log.topics[0] ?? null,
        signature: standard[i]?.signature ?? null,
        args: standard[i]?.args ?? null,
      })),
      transfers: standard.flatMap((event, i) =>
        event?.name === "Transfer"
          ? [
              {
                standard: event.standard,
                token: getAddress(outcome.logs[i].address),
                from: String(event.args.from),
                to: String(event.args.to),
                value: event.standard === "erc20" ? String(event.args.value) : null,
                tokenId: event.standard === "erc721" ? String(event.args.tokenId) : null,
              },
            ]
          : [],
      ),
    };
  },
});

// eth_simulateV1 is missing on many public nodes: "method not found" or "not supported" sends us to eth_call.
function unsupported(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    /method.*(not (found|supported|available|exist))|does not exist|unsupported/i.test(
      `${error.message} ${error.details ?? ""}`,
    )
  );
}
