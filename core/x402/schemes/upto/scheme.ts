import { evmFateReader } from "../../evm-fate.ts";
import type { X402Scheme } from "../../scheme.ts";
import { permit2FateOf } from "./fate.ts";
import { uptoTerms } from "./terms.ts";

export const upto: X402Scheme = {
  terms: uptoTerms,
  fate: ({ logWindow }) => evmFateReader(permit2FateOf, logWindow),
};
