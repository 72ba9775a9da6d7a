import { test } from "node:test";
import assert from "node:assert/strict";
import { BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT_DOMAIN, voucherTypes } from "@x402/evm";
import { bytesToHex, hashTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { recoverSigner, voucherDigester } from "../../../core/x402/signature.ts";

const channelId = "0x73c15ade3157ccd84775d6fac1d7f7e39b6fe8c0d4291349dec7ce3707de4405";
const payer = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");

test("voucher digest: the EIP-712 digest viem computes, on two chains, and its signer recovered; no digest past uint128", async () => {
  for (const chainId of [84532, 8453]) {
    const digest = voucherDigester(chainId);
    const domain = { ...BATCH_SETTLEMENT_DOMAIN, chainId, verifyingContract: BATCH_SETTLEMENT_ADDRESS };
    for (const maxClaimableAmount of [0n, 6000n, (1n << 128n) - 1n]) {
      const typed = {
        domain,
        types: voucherTypes,
        primaryType: "Voucher",
        message: { channelId, maxClaimableAmount },
      } as const;
      const ours = digest(channelId, maxClaimableAmount)!;
      assert.equal(bytesToHex(ours), hashTypedData(typed));
      assert.equal(recoverSigner(ours, await payer.signTypedData(typed)), payer.address.toLowerCase());
    }
    assert.equal(digest(channelId, 1n << 128n), undefined);
    assert.equal(digest(channelId, -1n), undefined);
  }
});
