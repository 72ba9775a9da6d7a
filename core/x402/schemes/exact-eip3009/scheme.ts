import { evmFateReader } from "../../evm-fate.ts";
import type { X402Scheme } from "../../scheme.ts";
import { bindEip3009 } from "./bind.ts";
import { fateOf } from "./fate.ts";
import { exactEip3009Terms } from "./terms.ts";

export const exactEip3009: X402Scheme = {
  terms: exactEip3009Terms,
  takes: { scheme: "exact", namespace: "eip155", v1: true },
  bind: bindEip3009,
  fate: ({ logWindow }) => evmFateReader(fateOf, logWindow),
};
