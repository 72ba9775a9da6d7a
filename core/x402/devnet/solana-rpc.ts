import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { LiteSVM } from "litesvm";
import {
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  verifySignature,
  getPublicKeyFromAddress,
  type Address,
  type Transaction,
} from "@solana/kit";
import { getTokenDecoder } from "@solana-program/token";

/**
 * The JSON-RPC methods the @x402/svm client and facilitator (and our reconciliation) call, answered by an
 * in-process LiteSVM. LiteSVM executes; this layer is the node: it checks every signature, keeps blockhashes
 * valid for 150 slots of 400 ms (about a minute, as on Solana) and refuses an older one, refuses nothing twice but
 * lands it once, and keeps each transaction's status for getSignatureStatuses, getTransaction and
 * getSignaturesForAddress. It is not a validator: no consensus, no forks, no fees market, one process.
 */
export interface SvmNode {
  svm: LiteSVM;
  url: string;
  /** Makes the node drop sends (the reply is lost) until called with false: a settlement's outcome becomes unknown. */
  loseSends(lose: boolean): void;
  /** Moves the chain 151 slots on at once: every blockhash handed out so far expires (a minute passes). */
  skipMinute(): void;
  stop(): Promise<void>;
}

const SLOT_MS = 400;
const VALID_SLOTS = 150n;
const b58 = getBase58Decoder();
const b64in = getBase64Encoder();
const b64out = getBase64Decoder();
const txDecoder = getTransactionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();

interface Landed {
  slot: bigint;
  err: unknown;
  wire: string;
  blockTime: number;
  logs: string[];
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** Listens on `port` (Solana's local default 8899 for `npm start`), or on any free port when it is taken or 0. */
export async function startSvmNode(svm: LiteSVM, port = 0): Promise<SvmNode> {
  let started = Date.now();
  let slot = 0n;
  const blockhashes = new Map<string, bigint>([[svm.latestBlockhash(), 0n]]);
  const landed = new Map<string, Landed>();
  const byAddress = new Map<string, string[]>();
  let losing = false;

  /** Slots follow the clock; each new slot has a new blockhash. */
  function now() {
    const current = BigInt(Math.floor((Date.now() - started) / SLOT_MS));
    if (current > slot) {
      slot = current;
      svm.warpToSlot(slot);
      svm.expireBlockhash();
      blockhashes.set(svm.latestBlockhash(), slot);
      for (const [hash, at] of blockhashes) if (at + VALID_SLOTS < slot) blockhashes.delete(hash);
    }
    return slot;
  }
  const context = () => ({ slot: Number(now()) });
  const validBlockhash = (hash: string) => blockhashes.has(hash) && blockhashes.get(hash)! + VALID_SLOTS >= now();

  function decode(wire: string): { tx: Transaction; blockhash: string; signers: string[]; keys: string[] } {
    try {
      const tx = txDecoder.decode(b64in.encode(wire));
      const message = messageDecoder.decode(tx.messageBytes);
      const keys = message.staticAccounts.map(String);
      return { tx, blockhash: message.lifetimeToken, signers: keys.slice(0, message.header.numSignerAccounts), keys };
    } catch {
      throw new RpcError(-32602, "invalid transaction: failed to deserialize");
    }
  }

  async function signaturesHold(tx: Transaction, signers: string[]) {
    for (const signer of signers) {
      const signature = tx.signatures[signer as Address];
      if (!signature) return false;
      if (!(await verifySignature(await getPublicKeyFromAddress(signer as Address), signature, tx.messageBytes)))
        return false;
    }
    return true;
  }

  const errOf = (result: unknown) =>
    "err" in (result as object) ? String((result as { toString(): string }).toString()) : null;

  const methods: Record<string, (params: any[]) => unknown> = {
    getHealth: () => "ok",
    getVersion: () => ({ "solana-core": "litesvm-1.4.1 (x402 devnet)", "feature-set": 0 }),
    getSlot: () => Number(now()),
    getBlockHeight: () => Number(now()),
    getLatestBlockhash: () => ({
      context: context(),
      value: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: Number(now() + VALID_SLOTS) },
    }),
    isBlockhashValid: ([hash]) => ({ context: context(), value: validBlockhash(hash) }),
    getMinimumBalanceForRentExemption: ([size]) => Number(svm.minimumBalanceForRentExemption(BigInt(size))),
    getBalance: ([address]) => ({ context: context(), value: Number(svm.getBalance(address) ?? 0n) }),
    getAccountInfo([address]) {
      const account = svm.getAccount(address);
      if (!account.exists) return { context: context(), value: null };
      return {
        context: context(),
        value: {
          data: [b64out.decode(account.data), "base64"],
          executable: account.executable,
          lamports: Number(account.lamports),
          owner: account.programAddress,
          rentEpoch: 0,
          space: account.data.length,
        },
      };
    },
    getTokenAccountBalance([address]) {
      const account = svm.getAccount(address);
      if (!account.exists) throw new RpcError(-32602, "Invalid param: could not find account");
      const amount = getTokenDecoder().decode(account.data).amount;
      return {
        context: context(),
        value: {
          amount: String(amount),
          decimals: 6,
          uiAmount: Number(amount) / 1e6,
          uiAmountString: String(Number(amount) / 1e6),
        },
      };
    },
    simulateTransaction([wire, config]) {
      const { tx, blockhash } = decode(wire);
      if (!config?.replaceRecentBlockhash && !validBlockhash(blockhash))
        return {
          context: context(),
          value: { err: "BlockhashNotFound", logs: [], unitsConsumed: 0, accounts: null, returnData: null },
        };
      const result = svm.simulateTransaction(tx as never);
      const err = errOf(result);
      const meta = err
        ? (result as { meta(): { logs(): string[]; computeUnitsConsumed(): bigint } }).meta()
        : (result as { meta(): { logs(): string[]; computeUnitsConsumed(): bigint } }).meta();
      return {
        context: context(),
        value: {
          err,
          logs: meta.logs(),
          unitsConsumed: Number(meta.computeUnitsConsumed()),
          accounts: null,
          returnData: null,
          ...(config?.innerInstructions ? { innerInstructions: [] } : {}),
        },
      };
    },
    async sendTransaction([wire]) {
      if (losing) throw new RpcError(0, "lost");
      const { tx, blockhash, signers, keys } = decode(wire);
      const signature = b58.decode(tx.signatures[signers[0] as Address] ?? new Uint8Array(64));
      if (landed.has(signature)) return signature;
      if (!(await signaturesHold(tx, signers)))
        throw new RpcError(-32003, "Transaction signature verification failure");
      if (!validBlockhash(blockhash))
        throw new RpcError(-32002, "Transaction simulation failed: Blockhash not found", {
          err: "BlockhashNotFound",
          logs: [],
        });
      const result = svm.sendTransaction(tx as never);
      const err = errOf(result);
      const meta =
        (result as { meta?(): { logs(): string[] } }).meta?.() ?? (result as unknown as { logs(): string[] });
      landed.set(signature, { slot: now(), err, wire, blockTime: Math.floor(Date.now() / 1000), logs: meta.logs() });
      for (const key of keys) byAddress.set(key, [...(byAddress.get(key) ?? []), signature]);
      return signature;
    },
    getSignatureStatuses: ([signatures]) => ({
      context: context(),
      value: (signatures as string[]).map((s) => {
        const l = landed.get(s);
        return l
          ? {
              slot: Number(l.slot),
              confirmations: null,
              err: l.err,
              confirmationStatus: "finalized",
              status: l.err ? { Err: l.err } : { Ok: null },
            }
          : null;
      }),
    }),
    getTransaction([signature]) {
      const l = landed.get(signature);
      if (!l) return null;
      return {
        slot: Number(l.slot),
        blockTime: l.blockTime,
        version: 0,
        transaction: [l.wire, "base64"],
        meta: {
          err: l.err,
          status: l.err ? { Err: l.err } : { Ok: null },
          fee: 5000,
          preBalances: [],
          postBalances: [],
          innerInstructions: [],
          logMessages: l.logs,
          preTokenBalances: [],
          postTokenBalances: [],
          rewards: [],
          loadedAddresses: { readonly: [], writable: [] },
          computeUnitsConsumed: 0,
        },
      };
    },
    getSignaturesForAddress([address, config]) {
      const all = [...(byAddress.get(address) ?? [])].reverse().slice(0, config?.limit ?? 1000);
      return all.map((s) => {
        const l = landed.get(s)!;
        return {
          signature: s,
          slot: Number(l.slot),
          err: l.err,
          memo: null,
          blockTime: l.blockTime,
          confirmationStatus: "finalized",
        };
      });
    },
    requestAirdrop([address, lamports]) {
      svm.airdrop(address, BigInt(lamports) as never);
      return b58.decode(crypto.getRandomValues(new Uint8Array(64)));
    },
  };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let id: unknown = null;
    let reply: object;
    try {
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      id = request.id;
      const method = methods[request.method];
      if (!method) throw new RpcError(-32601, `Method not found: ${request.method}`);
      reply = { jsonrpc: "2.0", id, result: await method(request.params ?? []) };
    } catch (error) {
      if (error instanceof RpcError && error.code === 0) return req.socket.destroy();
      const e = error instanceof RpcError ? error : new RpcError(-32603, String((error as Error)?.message ?? error));
      reply = { jsonrpc: "2.0", id, error: { code: e.code, message: e.message, ...(e.data ? { data: e.data } : {}) } };
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
  });
  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(p, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(port).catch((error: NodeJS.ErrnoException) => {
    if (port === 0 || error.code !== "EADDRINUSE") throw error;
    return listen(0);
  });
  server.unref();
  return {
    svm,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    loseSends: (lose) => void (losing = lose),
    skipMinute() {
      started -= Number(VALID_SLOTS + 1n) * SLOT_MS;
      now();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
