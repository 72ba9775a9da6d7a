import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  HttpRequestError,
  RawContractError,
  RpcRequestError,
  TimeoutError,
  type PublicClient,
} from "viem";
import { ServiceError, upstreamFailed } from "../../core/runtime/errors.ts";
import { clientFor, type ChainSlug } from "./_chains.ts";

/** Upstream name the node appears under in errors and in the data-sources table. */
export const NODE = "evm-rpc";

/**
 * Runs reads against a chain's node. Transport failures (the node down, slow or refusing) become 502/504 and are
 * never charged; anything else (a revert, a missing record) is left for the endpoint to interpret.
 */
export async function readNode<T>(slug: ChainSlug, work: (client: PublicClient) => Promise<T>): Promise<T> {
  try {
    return await work(await clientFor(slug));
  } catch (error) {
    throw nodeFailure(slug, error) ?? error;
  }
}

export function nodeFailure(slug: string, error: unknown): ServiceError | undefined {
  if (error instanceof ServiceError || !(error instanceof BaseError)) return undefined;
  if (error.walk((e) => isRevert(e))) return undefined;
  if (error.walk((e) => e instanceof TimeoutError)) {
    return new ServiceError(504, "upstream_timeout", `the ${slug} node did not answer in time`, { upstream: NODE, chain: slug });
  }
  const transport = error.walk((e) => e instanceof HttpRequestError || e instanceof RpcRequestError);
  if (transport) {
    const failure = upstreamFailed(NODE, `the ${slug} node failed: ${(transport as BaseError).shortMessage}`);
    return new ServiceError(failure.status, failure.code, failure.message, { upstream: NODE, chain: slug });
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
