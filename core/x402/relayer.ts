import type { SettlementBacklog } from "../payment/facilitator.ts";
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

export interface LocalFacilitatorOptions {
  rpcUrl: string;
  chainId: number;
  /** Pays the gas of every settlement. */
  relayerKey: `0x${string}`;
  confirmationTimeoutMs?: number;
  /** A settlement not mined this long is sent again, or replaced with higher fees (RELAYER_REPLACE_AFTER_SECONDS). */
  replaceAfterMs?: number;
  /** The highest maxFeePerGas the relayer signs, in wei (RELAYER_MAX_FEE_GWEI). */
  maxFeePerGas?: bigint;
  /** Where the relayer says that a settlement waits too long. */
  log?: RelayerLog;
}

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

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

interface Signed {
  raw: Hex;
  hash: Hash;
  nonce: number;
  fees: Fees;
}

interface Queued {
  call: RelayedCall;
  attempt: number;
  resolve(signed: Signed): void;
  reject(error: unknown): void;
}

/** A transaction of this process the node took (or may have taken), not yet seen mined. */
interface Flight {
  nonce: number;
  call: RelayedCall;
  /** Every version sent at this nonce, the newest last: whichever is mined settles the call. */
  sent: Signed[];
  /** When the first version was sent, and when the newest. */
  since: number;
  sentAt: number;
  /** Its nonce was mined with a transaction not ours: it can never land. */
  superseded?: boolean;
  /** A warning was logged that the fee cap keeps it from being replaced. */
  capped?: boolean;
}

export interface RelayerLog {
  warn(fields: object, message: string): void;
}

export interface RelayerOptions {
  /** Sends of one call whose nonce another sender of the same key took first (several instances). */
  maxAttempts?: number;
  pollMs?: number;
  /** How often the transactions still without a receipt are looked after on the node. */
  recheckMs?: number;
  /** A transaction not mined this long after it was sent is replaced at its nonce with higher fees. */
  replaceAfterMs?: number;
  /** No transaction is signed with a higher maxFeePerGas (wei), a replacement neither. */
  maxFeePerGas?: bigint;
  log?: RelayerLog;
}

/** What the relayer holds: the calls waiting to be sent and the transactions sent but not mined. */
export type RelayerBacklog = SettlementBacklog;

// Wordings of geth, reth/anvil, Nethermind, Erigon and the providers in front of them.
const staleNonce =
  /nonce too low|nonce has already been used|already used|replacement transaction underpriced|oldnonce|nonce expired|replacementnotallowed/i;
const alreadyKnown = /already known|already imported|alreadyknown|known transaction/i;
// The fees it was signed with are below what the chain asks now (the base fee rose since the estimate).
const feeTooLow =
  /less than block base fee|fee cap less than|feecap.*below|^transaction underpriced|fee too low|feetoolow/i;

/** What a send's failure says about the transaction: only a JSON-RPC answer is an answer. */
export function replyOf(error: unknown): "known" | "stale-nonce" | "fee-too-low" | "lost" | { refused: string } {
  const answer = error instanceof BaseError ? error.walk((e) => e instanceof RpcRequestError) : undefined;
  if (!(answer instanceof RpcRequestError)) return "lost";
  const text = `${answer.details} ${answer.shortMessage}`;
  if (alreadyKnown.test(text)) return "known";
  if (staleNonce.test(text)) return "stale-nonce";
  if (feeTooLow.test(answer.details) || feeTooLow.test(answer.shortMessage)) return "fee-too-low";
  return { refused: answer.details || answer.shortMessage };
}

/**
 * The fees of a replacement: at least an eighth above the last (nodes ask for 10 % on both caps, some 12.5 %) and
 * at least what the chain asks now; undefined when the cap leaves no room for a valid bump.
 */
export function bumpedFees(last: Fees, now: Fees, cap: bigint): Fees | undefined {
  const up = (fee: bigint) => fee + (fee + 7n) / 8n;
  const capped = lowest(highest(up(last.maxFeePerGas), now.maxFeePerGas), cap);
  // Below a tenth more than the last, a node takes the replacement for underpriced.
  if (capped * 10n < last.maxFeePerGas * 11n) return undefined;
  const maxPriorityFeePerGas = lowest(highest(up(last.maxPriorityFeePerGas), now.maxPriorityFeePerGas), capped);
  if (maxPriorityFeePerGas * 10n < last.maxPriorityFeePerGas * 11n) return undefined;
  return { maxFeePerGas: capped, maxPriorityFeePerGas };
}

function highest(a: bigint, b: bigint) {
  return a > b ? a : b;
}
function lowest(a: bigint, b: bigint) {
  return a < b ? a : b;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the relayer's transactions and waits for them to land. Nonces are counted here and handed out in
 * order at send time, and the signed transactions of one moment go to the node in one ordered JSON-RPC batch
 * (a burst that reaches a node out of order can stay queued behind a nonce it already has). Several
 * instances may share the key: a send whose nonce the other took is signed again with the node's count.
 * A send whose reply is lost may have reached the node, so it is waited for by its hash, never assumed failed.
 * A transaction not mined in time is looked after until it is: sent again as it was when the node lost it,
 * replaced at its nonce with higher fees when it stays unmined at the head of the account's queue or under the
 * base fee, so the ones behind it never wait for it forever.
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
  const replaceAfterMs = options.replaceAfterMs ?? 15_000;
  const maxFee = options.maxFeePerGas ?? 100_000_000_000n;
  const log = options.log;
  let next: number | undefined;
  let fees: { at: number; value: Promise<Fees> } | undefined;
  const queue: Queued[] = [];
  let flushing = false;
  /** By the hash of their first version; two may share a nonce (one sent again after the other was lost). */
  const flights = new Map<Hash, Flight>();
  let tending: ReturnType<typeof setInterval> | undefined;
  let busy = false;
  /** Since when the account's next nonce has had no transaction while later ones of ours wait. */
  let gapSince: { nonce: number; at: number } | undefined;

  const nonceFromNode = () => client.getTransactionCount({ address: account.address, blockTag: "pending" });
  // Fee estimates move per block; one estimate serves every settlement of the same second.
  const currentFees = () => {
    if (!fees || Date.now() - fees.at > 1000)
      fees = { at: Date.now(), value: client.estimateFeesPerGas() as Promise<Fees> };
    return fees.value;
  };
  const recount = () => {
    next = undefined;
    fees = undefined;
  };
  const withinCap = (f: Fees): Fees => ({
    maxFeePerGas: lowest(f.maxFeePerGas, maxFee),
    maxPriorityFeePerGas: lowest(f.maxPriorityFeePerGas, maxFee),
  });
  const signAt = async (nonce: number, call: RelayedCall, f: Fees): Promise<Signed> => {
    const raw = await account.signTransaction({ type: "eip1559", chainId, nonce, ...call, ...f });
    return { raw, hash: keccak256(raw), nonce, fees: f };
  };
  const sendRaw = (s: Signed) =>
    client.sendRawTransaction({ serializedTransaction: s.raw }).then(
      () => "known" as const,
      (error) => replyOf(error),
    );

  async function signBatch(batch: Queued[]) {
    const [base, f] = await Promise.all([next ?? nonceFromNode(), currentFees()]);
    next = base + batch.length;
    return Promise.all(batch.map((q, i) => signAt(base + i, q.call, withinCap(f))));
  }

  /** A no-op at a nonce nothing of ours holds, so the transactions queued behind it can be mined. */
  async function fill(nonce: number, f: Fees) {
    const noop = await signAt(nonce, { to: account.address, data: "0x", gas: 21_000n }, withinCap(f)).catch(
      () => undefined,
    );
    if (noop) await sendRaw(noop);
  }

  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      while (queue.length) {
        const batch = queue.splice(0);
        const signed = await signBatch(batch).catch((error) => {
          recount();
          for (const q of batch)
            q.reject(new SendRefused(`the transaction could not be prepared: ${(error as Error)?.message ?? error}`));
        });
        if (!signed) continue;
        // Requested in one tick, in nonce order: the transport sends them as one ordered batch.
        const replies = await Promise.all(signed.map(sendRaw));
        const refused: number[] = [];
        let lastTaken = -1;
        replies.forEach((reply, i) => {
          const q = batch[i];
          if (reply === "known" || reply === "lost") {
            lastTaken = i;
            track(q.call, signed[i]);
            return q.resolve(signed[i]);
          }
          recount();
          // Signed again with the node's count and a fresh estimate.
          if ((reply === "stale-nonce" || reply === "fee-too-low") && q.attempt < maxAttempts) {
            q.attempt++;
            queue.push(q);
            if (reply === "fee-too-low") refused.push(i);
            return;
          }
          if (reply !== "stale-nonce") refused.push(i);
          q.reject(
            new SendRefused(
              reply === "stale-nonce"
                ? `every nonce tried was taken (${maxAttempts} attempts)`
                : `the node refused the transaction: ${reply === "fee-too-low" ? "its fees are below the base fee" : reply.refused}`,
            ),
          );
        });
        // A refused nonce below one the node took would hold the later ones back.
        for (const i of refused) if (i < lastTaken) await fill(signed[i].nonce, await currentFees());
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

  function track(call: RelayedCall, signed: Signed) {
    const now = Date.now();
    flights.set(signed.hash, { nonce: signed.nonce, call, sent: [signed], since: now, sentAt: now });
    tending ??= setInterval(() => {
      if (busy) return;
      busy = true;
      void tend()
        .catch(() => {})
        .finally(() => (busy = false));
    }, recheckMs);
    tending.unref?.();
  }

  const countOf = (blockTag: "latest" | "pending") =>
    client.getTransactionCount({ address: account.address, blockTag }).catch(() => undefined);
  const isKnown = (s: Signed) =>
    client.getTransaction({ hash: s.hash }).then(
      () => true,
      () => false,
    );

  /** The receipt of whichever version was mined; "none" only when the node said so for each. */
  async function receiptOf(sent: Signed[]): Promise<TransactionReceipt | "none" | undefined> {
    const receipts = await Promise.all(
      sent.map((s) =>
        client
          .getTransactionReceipt({ hash: s.hash })
          .catch((e) => (e instanceof TransactionReceiptNotFoundError ? ("none" as const) : undefined)),
      ),
    );
    const mined = receipts.filter((r): r is TransactionReceipt => typeof r === "object");
    if (receipts.every((r) => r === "none")) return "none";
    return mined.find((r) => r.status === "success") ?? mined[0];
  }

  /** A version of `flight` the node can mine: the last one again when the node lost it, else one with higher fees. */
  async function resend(flight: Flight, base: bigint | undefined, head: boolean) {
    const last = flight.sent[flight.sent.length - 1];
    const known = await isKnown(last);
    if (!known && (base === undefined || last.fees.maxFeePerGas >= base)) {
      const reply = await sendRaw(last);
      if (reply === "known" || reply === "lost") return void (flight.sentAt = Date.now());
    }
    if (known && !head && base !== undefined && last.fees.maxFeePerGas >= base) return;
    const f = bumpedFees(last.fees, await currentFees(), maxFee);
    if (!f) {
      if (!flight.capped)
        log?.warn(
          { nonce: flight.nonce, hash: last.hash, maxFeePerGas: String(last.fees.maxFeePerGas), cap: String(maxFee) },
          "relayer: a settlement is not mined and its fees are at the cap (RELAYER_MAX_FEE_GWEI): not replaced",
        );
      flight.capped = true;
      return;
    }
    const replacement = await signAt(flight.nonce, flight.call, f);
    const reply = await sendRaw(replacement);
    log?.warn(
      {
        nonce: flight.nonce,
        waitedMs: Date.now() - flight.since,
        replaced: last.hash,
        hash: replacement.hash,
        maxFeePerGas: String(f.maxFeePerGas),
        maxPriorityFeePerGas: String(f.maxPriorityFeePerGas),
        reply: typeof reply === "string" ? reply : reply.refused,
        ...backlog(),
      },
      "relayer: a settlement was not mined in time; replaced at its nonce with higher fees",
    );
    if (reply === "known" || reply === "lost") {
      flight.sent.push(replacement);
      flight.sentAt = Date.now();
    }
  }

  /**
   * Looks after every transaction sent and not yet mined: a mined nonce ends its flight (superseded when none
   * of its versions has a receipt), and one unmined past `replaceAfterMs` is sent again or replaced.
   */
  async function tend() {
    if (!flights.size) {
      clearInterval(tending);
      tending = undefined;
      return;
    }
    const [mined, block] = await Promise.all([countOf("latest"), client.getBlock().catch(() => undefined)]);
    if (mined === undefined) return;
    const base = block?.baseFeePerGas ?? undefined;
    const now = Date.now();
    for (const [key, flight] of [...flights].sort(([, a], [, b]) => a.nonce - b.nonce)) {
      if (flight.nonce < mined) {
        const receipt = await receiptOf(flight.sent);
        if (receipt === undefined) continue;
        if (receipt === "none") flight.superseded = true;
        flights.delete(key);
        continue;
      }
      if (now - flight.sentAt >= replaceAfterMs) await resend(flight, base, flight.nonce === mined);
    }
    const lowest = Math.min(...[...flights.values()].map((f) => f.nonce));
    if (!flights.size || lowest === mined) return void (gapSince = undefined);
    // Our transactions wait behind a nonce none of ours holds (a send another instance lost, or one given up).
    if (gapSince?.nonce !== mined) gapSince = { nonce: mined, at: now };
    else if (now - gapSince.at >= replaceAfterMs && (await countOf("pending")) === mined) {
      await fill(mined, bumpedFees(await currentFees(), await currentFees(), maxFee) ?? (await currentFees()));
      gapSince = { nonce: mined, at: now };
    }
  }

  function backlog(): RelayerBacklog {
    let oldest: Flight | undefined;
    for (const f of flights.values()) if (!oldest || f.since < oldest.since) oldest = f;
    return {
      pending: flights.size + queue.length,
      oldestMs: oldest ? Date.now() - oldest.since : 0,
      oldestNonce: oldest?.nonce,
    };
  }

  /** Waits for the receipt of any version of the transaction first sent as `hash`; undefined once it can never land. */
  async function landed(hash: Hash, deadline: number): Promise<TransactionReceipt | undefined | "timeout"> {
    const flight = flights.get(hash);
    const versions = () => flight?.sent ?? [{ hash } as Signed];
    while (Date.now() < deadline) {
      const receipt = await receiptOf(versions());
      if (typeof receipt === "object") {
        flights.delete(hash);
        return receipt;
      }
      if (flight?.superseded) return undefined;
      await sleep(pollMs);
    }
    return "timeout";
  }

  return {
    /** Hands the call to the node; the hash of what it holds (or may hold, when its reply was lost). */
    send: async (call: RelayedCall): Promise<Hash> => (await submit(call)).hash,
    /**
     * The receipt of a transaction `send` returned the hash of, or of the version that replaced it; viem's
     * TransactionReceiptNotFoundError once its nonce was mined with another transaction or past `timeoutMs`.
     */
    async receipt(hash: Hash, timeoutMs: number): Promise<TransactionReceipt> {
      const found = await landed(hash, Date.now() + timeoutMs);
      if (!found || found === "timeout") throw new TransactionReceiptNotFoundError({ hash });
      return found;
    },
    /**
     * Sends the call and waits for its receipt. SendRefused: nothing was taken by the node, nothing can land.
     * ConfirmationTimeout: a transaction may still land (and is still looked after).
     */
    async relay(call: RelayedCall, timeoutMs: number): Promise<{ hash: Hash; receipt: TransactionReceipt }> {
      const deadline = Date.now() + timeoutMs;
      const tried: Hash[] = [];
      for (let attempt = 1; ; attempt++) {
        // Something was sent before: a refusal now does not make the outcome certain.
        const signed = attempt === 1 ? await submit(call) : await submit(call).catch(() => undefined);
        if (!signed) break;
        tried.push(signed.hash);
        const receipt = await landed(signed.hash, deadline);
        if (receipt === "timeout") break;
        if (receipt) return { hash: receipt.transactionHash, receipt };
        if (attempt >= maxAttempts) break;
      }
      throw new ConfirmationTimeout(`no receipt within ${timeoutMs} ms for ${tried.join(", ")}`);
    },
    /** The calls waiting to be sent and the transactions sent and not yet mined. */
    backlog,
  };
}

export type Relayer = ReturnType<typeof createRelayer>;
export type RelayerOn = ReturnType<typeof relayerOn>;

/** The relayer key's one sender on a chain: every settlement path of a process shares its nonce count. */
export function relayerOn(o: LocalFacilitatorOptions) {
  const account = privateKeyToAccount(o.relayerKey);
  // No chain definition needed: the relayer signs with the chain id, and the rest are plain reads.
  const client = createPublicClient({ transport: http(o.rpcUrl, { batch: true }) });
  const relayer = createRelayer(client, account, o.chainId, {
    replaceAfterMs: o.replaceAfterMs,
    maxFeePerGas: o.maxFeePerGas,
    log: o.log,
  });
  return { client, account, relayer };
}
