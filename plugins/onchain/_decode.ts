import {
  decodeEventLog,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  parseAbi,
  parseAbiItem,
  slice,
  type AbiFunction,
  type Hex,
  type Log,
} from "viem";
import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface DecodedArg {
  name: string | null;
  type: string;
  value: Json;
}

export interface Candidate {
  signature: string;
  args: DecodedArg[];
}

const Hits = v.optional(v.record(v.string(), v.nullable(v.array(v.object({ name: v.string() })))));
/** What the code reads of the signature database's lookup: names by selector (or topic), null when unknown. */
const Lookup = v.object({ result: v.object({ function: Hits, event: Hits }) });

/** Text signatures for 4-byte selectors and 32-byte event topics from Sourcify's signature database (OpenChain-compatible). */
export async function lookupSignatures(api: Upstream, selectors: Hex[], topics: Hex[] = []) {
  const functions = new Map<string, string[]>();
  const events = new Map<string, string[]>();
  if (selectors.length + topics.length === 0) return { functions, events };
  const query: Record<string, string> = { filter: "true" };
  if (selectors.length) query.function = [...new Set(selectors.map((s) => s.toLowerCase()))].join(",");
  if (topics.length) query.event = [...new Set(topics.map((s) => s.toLowerCase()))].join(",");
  const body = await api.json("/lookup", Lookup, { query });
  for (const [key, hits] of Object.entries(body.result.function ?? {}))
    functions.set(
      key.toLowerCase(),
      (hits ?? []).map((h) => h.name),
    );
  for (const [key, hits] of Object.entries(body.result.event ?? {}))
    events.set(
      key.toLowerCase(),
      (hits ?? []).map((h) => h.name),
    );
  return { functions, events };
}

/**
 * Decodes calldata with each candidate signature and keeps those that re-encode to exactly the same bytes, so a
 * selector collision or a lucky partial decode is not reported as an answer.
 */
export function decodeCalldata(data: Hex, signatures: string[]): Candidate[] {
  const found: Candidate[] = [];
  for (const signature of signatures) {
    try {
      const item = parseAbiItem(`function ${signature}`) as AbiFunction;
      const { args = [] } = decodeFunctionData({ abi: [item], data });
      if (encodeFunctionData({ abi: [item], args }).toLowerCase() !== data.toLowerCase()) continue;
      found.push({
        signature,
        args: item.inputs.map((input, i) => ({ name: input.name || null, type: input.type, value: toJson(args[i]) })),
      });
    } catch {
      // Not this signature.
    }
  }
  return found;
}

export const selectorOf = (data: Hex): Hex => slice(data, 0, 4);

/** bigint as decimal strings, addresses checksummed, everything else as JSON can hold it. */
export function toJson(value: unknown): Json {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return /^0x[0-9a-fA-F]{40}$/.test(value) ? getAddress(value) : value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  if (Array.isArray(value)) return value.map(toJson);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  return null;
}

// ERC-20 and ERC-721 share the Transfer and Approval topics; the number of indexed topics tells them apart.
const erc20Events = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
]);
const erc721Events = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)",
  "event ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
]);

export interface StandardEvent {
  standard: "erc20" | "erc721";
  name: "Transfer" | "Approval" | "ApprovalForAll";
  signature: string;
  args: Record<string, Json>;
}

/** Decodes the token events every wallet cares about without any lookup; other logs give undefined. */
export function decodeStandardEvent(log: Pick<Log, "data" | "topics">): StandardEvent | undefined {
  const tries =
    log.topics.length === 4
      ? [["erc721", erc721Events] as const]
      : [["erc20", erc20Events] as const, ["erc721", erc721Events] as const];
  for (const [standard, abi] of tries) {
    try {
      const decoded = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]], strict: true });
      const item = abi.find((e) => e.name === decoded.eventName)!;
      const signature = `${item.name}(${item.inputs.map((i) => i.type).join(",")})`;
      return { standard, name: decoded.eventName, signature, args: toJson(decoded.args) as Record<string, Json> };
    } catch {
      // Not this standard.
    }
  }
  return undefined;
}
