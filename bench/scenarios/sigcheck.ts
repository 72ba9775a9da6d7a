import type { PaymentRequired } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { recoverTypedDataAddress } from "viem";
import { devAccount } from "../../core/x402/devnet/index.ts";
import { authorizationDigest, recoverAuthorizer, type TokenDomain } from "../../core/x402/signature.ts";
import type { Authorization } from "../../core/x402/codec.ts";
import { payerClient, signPayments } from "../lib/sign.ts";
import type { Scenario } from "./scenario.ts";

export const SIGNED_AUTHORIZATIONS = 2000;
/** Passes over all authorizations; the median is reported. viem is slow enough for one pass to be steady. */
const PASSES = 3;
const VIEM_PASSES = 1;

const payer = devAccount(2);
const domain: TokenDomain = {
  name: "USDC",
  version: "2",
  chainId: 84532,
  verifyingContract: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
};
const required: PaymentRequired = {
  x402Version: 2,
  resource: { url: "http://127.0.0.1/v1/hash", description: "Hash text", mimeType: "application/json" },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:84532",
      amount: "1000",
      asset: domain.verifyingContract,
      payTo: devAccount(1).address,
      maxTimeoutSeconds: 300,
      extra: { name: domain.name, version: domain.version },
    },
  ],
};

interface Signed {
  authorization: Authorization;
  signature: `0x${string}`;
}

const oursRecover = async (s: Signed) => recoverAuthorizer(domain, s.authorization, s.signature);
/** The digest part of ours alone (keccak256 of the EIP-712 struct, viem's pure-JS keccak), to split the cost. */
const oursDigestOnly = async (s: Signed) =>
  authorizationDigest(domain, s.authorization).length === 32 ? payer.address : undefined;

const viemRecover = (s: Signed) =>
  recoverTypedDataAddress({
    domain,
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      from: s.authorization.from as `0x${string}`,
      to: s.authorization.to as `0x${string}`,
      value: BigInt(s.authorization.value),
      validAfter: BigInt(s.authorization.validAfter),
      validBefore: BigInt(s.authorization.validBefore),
      nonce: s.authorization.nonce as `0x${string}`,
    },
    signature: s.signature,
  });

/** Microseconds per check (wall and CPU of this thread), median of a few passes over every authorization. */
async function timeChecks(signed: Signed[], recover: (s: Signed) => Promise<string | undefined>, passCount = PASSES) {
  let correct = 0;
  for (const s of signed.slice(0, 200)) await recover(s); // JIT warm-up
  const passes: Array<{ wallUs: number; cpuUs: number }> = [];
  for (let pass = 0; pass < passCount; pass++) {
    correct = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (const s of signed) if ((await recover(s))?.toLowerCase() === payer.address.toLowerCase()) correct++;
    const wallUs = ((performance.now() - started) * 1000) / signed.length;
    const used = process.cpuUsage(cpu);
    passes.push({ wallUs, cpuUs: (used.user + used.system) / signed.length });
  }
  passes.sort((a, b) => a.cpuUs - b.cpuUs);
  return { ...passes[Math.floor(passCount / 2)], correct };
}

export const sigcheck: Scenario = {
  id: "sigcheck",
  async run() {
    const client = payerClient(payer.privateKey);
    const payloads = await signPayments(client, required, SIGNED_AUTHORIZATIONS);
    const signed = payloads.map((p) => p.payload as unknown as Signed);
    const ours = await timeChecks(signed, oursRecover);
    const digest = await timeChecks(signed, oursDigestOnly);
    const viem = await timeChecks(signed, viemRecover, VIEM_PASSES);
    const row = (name: string, r: typeof ours) =>
      `| ${name} | ${signed.length} | ${r.correct} | ${r.wallUs.toFixed(1)} | ${r.cpuUs.toFixed(1)} |`;
    return {
      id: "sigcheck",
      title: "8. CPU per signature check (in-process micro-benchmark)",
      notes: [
        `${SIGNED_AUTHORIZATIONS} EIP-3009 TransferWithAuthorization signatures by the dev payer (domain USDC/2, chain 84532), each with its own nonce, made by the real v2 client. ` +
          `Each implementation recovers the signer of every one (EIP-712 digest + ECDSA public-key recovery + address); median of ${PASSES} passes (viem: ${VIEM_PASSES}) after a warm-up of 200. CPU is process.cpuUsage() (user + system) of the bench process, which runs nothing else meanwhile.`,
      ],
      rows: [],
      table: [
        "| implementation | authorizations | recovered the payer | µs per check (wall) | µs per check (CPU) |",
        "|---|---:|---:|---:|---:|",
        row("ours: `recoverAuthorizer` (core/x402/signature.ts, libsecp256k1 native)", ours),
        row("of which the EIP-712 digest alone (`authorizationDigest`)", digest),
        row("viem 2.57.1 `recoverTypedDataAddress` (noble, pure JS)", viem),
      ],
      figures: {
        oursCpuUs: ours.cpuUs,
        oursWallUs: ours.wallUs,
        viemCpuUs: viem.cpuUs,
        viemWallUs: viem.wallUs,
        oursCorrect: ours.correct,
        viemCorrect: viem.correct,
      },
    };
  },
};
