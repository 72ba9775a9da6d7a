import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  RawContractError,
  RpcRequestError,
  type PublicClient,
} from "viem";
import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
import { chainRpcs, clientFor, rpcUpstream, type ChainRpc, type ChainSlug } from "./chains.ts";

/** The nodes of every chain: what an endpoint reading any chain lists in `upstreams`. */
export const NODES = chainRpcs;

/**
 * Runs reads against a chain's node, through this call's client of the chain's upstream. Transport failures
 * (the node down, slow or refusing) are the upstream client's 502/503/504, never charged; anything else (a
 * revert, a missing record) is left for the endpoint to interpret.
 */
export async function readNode<T>(
  upstream: (name: ChainRpc) => Upstream,
  slug: ChainSlug,
  work: (client: PublicClient) => Promise<T>,
): Promise<T> {
  try {
    return await work(await clientFor(upstream, slug));
  } catch (error) {
    throw nodeFailure(slug, error) ?? error;
  }
}

/** The service's error for a node fault wrapped in viem's errors; undefined for an answer about the chain (a revert). */
export function nodeFailure(slug: string, error: unknown): ServiceError | undefined {
  if (error instanceof ServiceError || !(error instanceof BaseError)) return undefined;
  if (error.walk((e) => isRevert(e))) return undefined;
  const ours = error.walk((e) => e instanceof ServiceError);
  if (ours) return ours as ServiceError;
  const refused = error.walk((e) => e instanceof RpcRequestError);
  if (refused) {
    const upstream = slug ? rpcUpstream(slug as ChainSlug) : "node";
    return new ServiceError(
      502,
      "upstream_error",
      `the ${slug || "chain's"} node failed: ${(refused as BaseError).shortMessage}`,
      { upstream, chain: slug },
    );
  }
  return undefined;
}

/** The call itself failed on-chain (a revert, no code at the address): an answer about the chain, not a node fault. */
export function isRevert(error: unknown): boolean {
  return (
    error instanceof ContractFunctionRevertedError ||
    error instanceof ContractFunctionZeroDataError ||
    error instanceof ExecutionRevertedError ||
    error instanceof RawContractError
  );
}

/** A probe that may fail on-chain (the function does not exist, it reverts): the fallback then, but node faults still throw. */
export function probe<T, F>(read: Promise<T>, fallback: F): Promise<T | F> {
  return read.catch((error: unknown) => {
    if (nodeFailure("", error)) throw error;
    return fallback;
  });
}
