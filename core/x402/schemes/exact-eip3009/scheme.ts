import { evmFateReader } from "../../evm-fate.ts";
import type { X402Scheme } from "../../scheme.ts";
import { fateOf } from "./fate.ts";
import { exactEip3009Terms } from "./terms.ts";

export const exactEip3009: X402Scheme = {
  terms: exactEip3009Terms,
  fate: ({ logWindow }) => evmFateReader(fateOf, logWindow),
};
