import * as v from "valibot";
import { proxyStandards } from "./_proxy.ts";

const maybeAddress = (what: string) => v.pipe(v.nullable(v.string()), v.description(what));

export const ProxyOutput = v.object({
  isContract: v.boolean(),
  isProxy: v.boolean(),
  standard: v.pipe(v.nullable(v.picklist(proxyStandards)), v.description("The proxy pattern found, null when none")),
  implementation: maybeAddress("Where calls are delegated now"),
  implementationIsContract: v.pipe(
    v.nullable(v.boolean()),
    v.description("false flags a proxy pointing at an empty address"),
  ),
  admin: maybeAddress("Who can upgrade (EIP-1967 or OpenZeppelin legacy admin slot), when set"),
  beacon: maybeAddress("EIP-1967 beacon, for beacon proxies"),
  facets: v.pipe(v.array(v.string()), v.description("EIP-2535 diamond facets")),
});
