import { BaseError, getAddress, hashTypedData, recoverTypedDataAddress, type Address, type Hex } from "viem";
import type { Upstream } from "../../core/endpoint.ts";
import { chainClient } from "../../core/runtime/chain-client.ts";
import { ServiceError, upstreamFailed } from "../../core/runtime/errors.ts";
import type { BetTypedData } from "./_typed-data.ts";

/** ERC-1271's answer when a contract wallet accepts a signature. */
const erc1271Magic = "0x1626ba7e";
const erc1271Abi = [
  {
    type: "function",
    name: "isValidSignature",
    stateMutability: "view",
    inputs: [
      { name: "hash", type: "bytes32" },
      { name: "signature", type: "bytes" },
    ],
    outputs: [{ name: "magicValue", type: "bytes4" }],
  },
] as const;

/**
 * The bettor signed these typed data: an EOA's signature recovers to it, or, as Azuro's core accepts, the bettor is a
 * contract wallet whose `isValidSignature` (ERC-1271) answers the magic value on its chain. Anything else is a 400.
 */
export async function checkSigner(typed: BetTypedData, signature: Hex, bettor: Address, node: () => Upstream) {
  const recovered = signature.length === 132 ? await recover(typed, signature) : undefined;
  if (recovered === bettor) return;
  if (await contractWalletAccepts(node(), bettor, hashTypedData(typed as any), signature)) return;
  throw new ServiceError(
    400,
    "signature_mismatch",
    "The signature is not the bettor's over these exact raw values (any changed value breaks it)",
    { bettor, recovered: recovered ?? null },
  );
}

async function recover(typed: BetTypedData, signature: Hex): Promise<Address | undefined> {
  try {
    return getAddress(await recoverTypedDataAddress({ ...(typed as any), signature }));
  } catch {
    return undefined;
  }
}

/** False for an address without code or whose call reverts: only a wallet that says yes has signed. */
async function contractWalletAccepts(node: Upstream, wallet: Address, hash: Hex, signature: Hex): Promise<boolean> {
  const client = chainClient(node);
  const code = await client.getCode({ address: wallet }).catch((error) => {
    throw upstreamFailed(node.name, `${node.name} could not say whether the bettor is a contract: ${messageOf(error)}`);
  });
  if (!code || code === "0x") return false;
  try {
    const answer = await client.readContract({
      address: wallet,
      abi: erc1271Abi,
      functionName: "isValidSignature",
      args: [hash, signature],
    });
    return answer.toLowerCase() === erc1271Magic;
  } catch (error) {
    // A revert or an answer of another shape is the wallet saying no; a node that does not answer is not.
    const transport = error instanceof BaseError && error.walk((e) => e instanceof ServiceError);
    if (!transport) return false;
    throw upstreamFailed(node.name, `${node.name} failed to ask the bettor's wallet: ${messageOf(error)}`);
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message.split("\n")[0] : String(error));
