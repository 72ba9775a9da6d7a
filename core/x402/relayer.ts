import {
  BaseError,
  RpcRequestError,
  TransactionReceiptNotFoundError,
  createPublicClient,
  http,
  keccak256,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { LocalFacilitatorOptions } from "./facilitator.ts";

export interface RelayedCall {
  to: Hex;
  data: Hex;
  gas: bigint;
}

/** The node answered the send with a refusal (or it was never sent): it is in no pool and cannot land. */
export class SendRefused extends Error {
  override name = "SendRefused";
}

/** No receipt within the confirmation timeout: the transaction may still land. */
export class ConfirmationTimeout extends Error {
  override name = "ConfirmationTimeout";
}

interface Signed {
  raw: Hex;
  hash: Hash;
  nonce: number;
}

interface Queued {
  call: RelayedCall;
  attempt: number;
  resolve(signed: Signed): void;
  reject(error: unknown): void;
}

export interface RelayerOptions {
  /** Sends of one call whose nonce another sender of the same key took first (several instances). */
  maxAttempts?: number;
  pollMs?: number;
  /** How often a transaction still without a receipt is looked for on the node. */
  recheckMs?: number;
}

// Wordings of geth, reth/anvil, Nethermind, Erigon and the providers in front of them.
const staleNonce =
  /nonce too low|nonce has already been used|already used|replacement transaction underpriced|oldnonce|nonce expired|replacementnotallowed/i;
const alreadyKnown = /already known|already imported|alreadyknown|known transaction/i;

/** What a send's failure says about the transaction: only a JSON-RPC answer is an answer. */
export function replyOf(error: unknown): "known" | "stale-nonce" | "lost" | { refused: string } {
  const answer = error instanceof BaseError ? error.walk((e) => e instanceof RpcRequestError) : undefined;
  if (!(answer instanceof RpcRequestError)) return "lost";
  const text = `${answer.details} ${answer.shortMessage}`;
  if (alreadyKnown.test(text)) return "known";
  if (staleNonce.test(text)) return "stale-nonce";
  return { refused: answer.details || answer.shortMessage };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the relayer's transactions and waits for them to land. Nonces are counted here and handed out in
 * order at send time, and the signed transactions of one moment go to the node in one ordered JSON-RPC batch
 * (a burst that reaches a node out of order can stay queued behind a nonce it already has). Several
 * instances may share the key: a send whose nonce the other took is signed again with the node's count.
 * A send whose reply is lost may have reached the node, so it is waited for by its hash, never assumed failed.
 */
export function createRelayer(
  client: PublicClient,
  account: PrivateKeyAccount,
  chainId: number,
  options: RelayerOptions = {},
) {
  const maxAttempts = options.maxAttempts ?? 8;
  const pollMs = options.pollMs ?? 100;
  const recheckMs = options.recheckMs ?? 2000;
  let next: number | undefined;
  let fees: { at: number; value: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> } | undefined;
  const queue: Queued[] = [];
  let flushing = false;

  const nonceFromNode = () => client.getTransactionCount({ address: account.address, blockTag: "pending" });
  // Fee estimates move per block; one estimate serves every settlement of the same second.
  const currentFees = () => {
    if (!fees || Date.now() - fees.at > 1000)
      fees = {
        at: Date.now(),
        value: client.estimateFeesPerGas() as Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }>,
      };
    return fees.value;
  };
  const recount = () => {
    next = undefined;
    fees = undefined;
  };
  const signAt = async (
    nonce: number,
    call: RelayedCall,
    f: Awaited<ReturnType<typeof currentFees>>,
  ): Promise<Signed> => {
    const raw = await account.signTransaction({ type: "eip1559", chainId, nonce, ...call, ...f });
    return { raw, hash: keccak256(raw), nonce };
  };

  /** A no-op at a nonce the node is missing, so the transactions queued behind it can be mined. */
  async function fill(nonce: number, f?: Awaited<ReturnType<typeof currentFees>>) {
    const noop = await signAt(
      nonce,
      { to: account.address, data: "0x", gas: 21_000n },
      f ?? (await currentFees()),
    ).catch(() => undefined);
    if (noop) await client.sendRawTransaction({ serializedTransaction: noop.raw }).catch(() => {});
  }

  async function signBatch(batch: Queued[]) {
    const [base, f] = await Promise.all([next ?? nonceFromNode(), currentFees()]);
    next = base + batch.length;
    return { f, signed: await Promise.all(batch.map((q, i) => signAt(base + i, q.call, f))) };
  }

  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      while (queue.length) {
        const batch = queue.splice(0);
        const prepared = await signBatch(batch).catch((error) => {
          recount();
          for (const q of batch)
            q.reject(new SendRefused(`the transaction could not be prepared: ${(error as Error)?.message ?? error}`));
        });
        if (!prepared) continue;
        const { f, signed } = prepared;
        // Requested in one tick, in nonce order: the transport sends them as one ordered batch.
        const replies = await Promise.allSettled(
          signed.map((s) => client.sendRawTransaction({ serializedTransaction: s.raw })),
        );
        const refused: number[] = [];
        let lastTaken = -1;
        replies.forEach((r, i) => {
          const reply = r.status === "fulfilled" ? "known" : replyOf(r.reason);
          const q = batch[i];
          if (reply === "known" || reply === "lost") {
            lastTaken = i;
            return q.resolve(signed[i]);
          }
          recount();
          if (reply === "stale-nonce" && q.attempt < maxAttempts) {
            q.attempt++;
            queue.push(q);
            return;
          }
          if (reply !== "stale-nonce") refused.push(i);
          q.reject(
            new SendRefused(
              reply === "stale-nonce"
                ? `every nonce tried was taken (${maxAttempts} attempts)`
                : `the node refused the transaction: ${reply.refused}`,
            ),
          );
        });
        // A refused nonce below one the node took would hold the later ones back.
        for (const i of refused) if (i < lastTaken) await fill(signed[i].nonce, f);
      }
    } finally {
      flushing = false;
    }
  }

  function submit(call: RelayedCall): Promise<Signed> {
    return new Promise<Signed>((resolve, reject) => {
      queue.push({ call, attempt: 1, resolve, reject });
      void flush();
    });
  }

  async function receiptOf(sent: Signed[]): Promise<TransactionReceipt | undefined> {
    const receipts = await Promise.all(
      sent.map((s) => client.getTransactionReceipt({ hash: s.hash }).catch(() => undefined)),
    );
    return receipts.find((r) => r?.status === "success") ?? receipts.find((r) => r !== undefined);
  }

  const countOf = (blockTag: "latest" | "pending") =>
    client.getTransactionCount({ address: account.address, blockTag }).catch(() => undefined);
  const isKnown = (s: Signed) =>
    client.getTransaction({ hash: s.hash }).then(
      () => true,
      () => false,
    );

  /**
   * True when the transaction can no longer land (its nonce was mined with another). One the node does not
   * have is sent again as it was; one waiting behind a nonce the node lacks gets that nonce filled.
   */
  async function superseded(s: Signed): Promise<boolean> {
    const [mined, pending] = await Promise.all([countOf("latest"), countOf("pending")]);
    if (mined !== undefined && mined > s.nonce)
      return client.getTransactionReceipt({ hash: s.hash }).then(
        () => false,
        (e) => e instanceof TransactionReceiptNotFoundError,
      );
    if (!(await isKnown(s))) await client.sendRawTransaction({ serializedTransaction: s.raw }).catch(() => {});
    else if (pending !== undefined && pending < s.nonce) await fill(pending);
    return false;
  }

  return {
    /** Hands the call to the node; the hash of what it holds (or may hold, when its reply was lost). */
    send: async (call: RelayedCall): Promise<Hash> => (await submit(call)).hash,
    /**
     * Sends the call and waits for its receipt. SendRefused: nothing was taken by the node, nothing can land.
     * ConfirmationTimeout: a transaction may still land.
     */
    async relay(call: RelayedCall, timeoutMs: number): Promise<{ hash: Hash; receipt: TransactionReceipt }> {
      const deadline = Date.now() + timeoutMs;
      const sent = [await submit(call)];
      let recheckAt = Date.now() + recheckMs;
      while (Date.now() < deadline) {
        const receipt = await receiptOf(sent);
        if (receipt) return { hash: receipt.transactionHash, receipt };
        if (Date.now() >= recheckAt) {
          recheckAt = Date.now() + recheckMs;
          if (sent.length < maxAttempts && (await superseded(sent[sent.length - 1]))) {
            // Something was sent before: a refusal now does not make the outcome certain.
            const again = await submit(call).catch(() => undefined);
            if (again) sent.push(again);
          }
        }
        await sleep(pollMs);
      }
      // Not in the node's pool: the next send counts from the node, so its nonce does not stay a gap.
      if (!(await isKnown(sent[sent.length - 1]))) recount();
      throw new ConfirmationTimeout(`no receipt within ${timeoutMs} ms for ${sent.map((s) => s.hash).join(", ")}`);
    },
  };
}

export type Relayer = ReturnType<typeof createRelayer>;
export type RelayerOn = ReturnType<typeof relayerOn>;

/** The relayer key's one sender on a chain: every settlement path of a process shares its nonce count. */
export function relayerOn(o: LocalFacilitatorOptions) {
  const account = privateKeyToAccount(o.relayerKey);
  // No chain definition needed: the relayer signs with the chain id, and the rest are plain reads.
  const client = createPublicClient({ transport: http(o.rpcUrl, { batch: true }) });
  return { client, account, relayer: createRelayer(client, account, o.chainId) };
}
