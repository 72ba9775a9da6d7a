// test: own-process: runs the devnet as a process
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  concat,
  createPublicClient,
  createWalletClient,
  domainSeparator,
  http,
  maxUint256,
  numberToHex,
  parseEventLogs,
  parseSignature,
  toFunctionSignature,
  toEventSignature,
  type Abi,
  type Hex,
} from "viem";
import { authorizationTypes } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { compileTestUsdc } from "../../../core/x402/devnet/compile.ts";
import { tsNodeArgs } from "../../helpers/ts-node.ts";
import {
  DEV_DAI_PER_ACCOUNT,
  DEV_USDC_PER_ACCOUNT,
  devnetChain,
  plannedDevnet,
  startDevnet,
  testUsdcAbi,
  usdcBalance,
  type DevAccount,
  type Devnet,
} from "../../../core/x402/devnet/index.ts";

let devnet: Devnet;
before(async () => {
  devnet = await startDevnet();
});
after(async () => {
  await devnet?.stop();
});

const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** x402's own TransferWithAuthorization fields; EIP-3009's Receive variant has the same ones. */
const eip3009Types = {
  ...authorizationTypes,
  ReceiveWithAuthorization: authorizationTypes.TransferWithAuthorization,
  CancelAuthorization: [
    { name: "authorizer", type: "address" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

const clients = () => {
  const chain = devnetChain(devnet.rpcUrl);
  const reader = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
  const relayer = createWalletClient({
    chain,
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(devnet.accounts.relayer.privateKey),
  });
  return { reader, relayer };
};
const domain = () => ({
  name: devnet.usdc.name,
  version: devnet.usdc.version,
  chainId: devnet.chainId,
  verifyingContract: devnet.usdc.address,
});
const balanceOf = (account: DevAccount) => usdcBalance(devnet.rpcUrl, devnet.usdc.address, account.address);
const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

/** An authorization from the dev payer to payTo, signed by `signer` (the payer unless a test says otherwise). */
async function authorize(
  overrides: { value?: bigint; validAfter?: bigint; validBefore?: bigint; signer?: Hex; receive?: boolean } = {},
) {
  const message = {
    from: devnet.accounts.payer.address,
    to: devnet.accounts.payTo.address,
    value: overrides.value ?? 1_250_000n,
    validAfter: overrides.validAfter ?? 0n,
    validBefore: overrides.validBefore ?? nowSeconds() + 3600n,
    nonce: generatePrivateKey(), // any random 32 bytes
  };
  const signer = privateKeyToAccount(overrides.signer ?? devnet.accounts.payer.privateKey);
  const primaryType = overrides.receive ? "ReceiveWithAuthorization" : "TransferWithAuthorization";
  const signature = await signer.signTypedData({ domain: domain(), types: eip3009Types, primaryType, message });
  return { message, signature };
}

type Authorization = Awaited<ReturnType<typeof authorize>>;
const authArgs = ({ message: m }: Authorization) =>
  [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce] as const;

async function submitWithVrs(auth: Authorization) {
  const { r, s, v } = parseSignature(auth.signature);
  const { reader, relayer } = clients();
  const hash = await relayer.writeContract({
    address: devnet.usdc.address,
    abi: testUsdcAbi,
    functionName: "transferWithAuthorization",
    args: [...authArgs(auth), Number(v), r, s],
  });
  return reader.waitForTransactionReceipt({ hash });
}

async function submitWithBytes(auth: Authorization, signature: Hex = auth.signature) {
  const { reader, relayer } = clients();
  const hash = await relayer.writeContract({
    address: devnet.usdc.address,
    abi: testUsdcAbi,
    functionName: "transferWithAuthorization",
    args: [...authArgs(auth), signature],
  });
  return reader.waitForTransactionReceipt({ hash });
}

const authorizationUsed = (auth: Authorization) =>
  clients().reader.readContract({
    address: devnet.usdc.address,
    abi: testUsdcAbi,
    functionName: "authorizationState",
    args: [auth.message.from, auth.message.nonce],
  });

test("runs on chain id 84532 with anvil's own dev accounts", async () => {
  const { reader } = clients();
  assert.equal(await reader.getChainId(), 84532);
  assert.equal(devnet.network, "eip155:84532");
  const anvilAccounts = await createWalletClient({ transport: http(devnet.rpcUrl) }).getAddresses();
  const ours = [devnet.accounts.relayer, devnet.accounts.payTo, devnet.accounts.payer, ...devnet.accounts.others];
  assert.deepEqual(
    ours.map((a) => a.address.toLowerCase()),
    anvilAccounts.map((a) => a.toLowerCase()),
  );
  for (const account of ours) assert.equal(privateKeyToAccount(account.privateKey).address, account.address);
});

test("funds every dev account with 1,000,000 USDC", async () => {
  const { relayer, payTo, payer, others } = devnet.accounts;
  const balances = await Promise.all([relayer, payTo, payer, ...others].map(balanceOf));
  assert.equal(balances.length, 10);
  for (const balance of balances) assert.equal(balance, 1_000_000_000_000n);
  assert.equal(DEV_USDC_PER_ACCOUNT, 1_000_000_000_000n);
});

test("holds test DAI where it was planned: 18 decimals, no EIP-3009, every dev account funded, the dev payer's Permit2 approval given", async () => {
  const { reader } = clients();
  const dai = { address: devnet.dai.address, abi: testUsdcAbi } as const;
  assert.equal(devnet.dai.address, plannedDevnet([]).tokens.dai);
  assert.equal(devnet.usdc.address, plannedDevnet([]).tokens.usdc);
  const { relayer, payTo, payer, others } = devnet.accounts;
  const balances = await Promise.all(
    [relayer, payTo, payer, ...others].map((a) =>
      reader.readContract({ ...dai, functionName: "balanceOf", args: [a.address] }),
    ),
  );
  assert.deepEqual(balances, Array(10).fill(DEV_DAI_PER_ACCOUNT));
  assert.equal(await reader.readContract({ ...dai, functionName: "decimals" }), 18);
  const allowance = (owner: Hex) =>
    reader.readContract({ ...dai, functionName: "allowance", args: [owner, devnet.upto.permit2] });
  assert.deepEqual(await Promise.all([allowance(payer.address), allowance(others[0].address)]), [maxUint256, 0n]);
  // No EIP-3009: a facilitator asking for an authorization's state finds nothing to call.
  await assert.rejects(
    reader.readContract({ ...dai, functionName: "authorizationState", args: [payer.address, generatePrivateKey()] }),
  );
  assert.notEqual(await reader.getCode({ address: devnet.exactPermit2Proxy }), undefined);
});

test("reports USDC v2 metadata and the EIP-712 domain clients sign against", async () => {
  const { reader } = clients();
  const read = <F extends "name" | "version" | "symbol" | "decimals" | "DOMAIN_SEPARATOR">(functionName: F) =>
    reader.readContract({ address: devnet.usdc.address, abi: testUsdcAbi, functionName });
  assert.equal(await read("name"), "USDC");
  assert.equal(await read("version"), "2");
  assert.equal(await read("symbol"), "USDC");
  assert.equal(await read("decimals"), 6);
  assert.equal(await read("DOMAIN_SEPARATOR"), domainSeparator({ domain: domain() }));
});

test("the typed ABI matches the ABI solc emits", async () => {
  const signatures = (abi: Abi) =>
    abi
      .map((item) =>
        item.type === "function"
          ? toFunctionSignature(item)
          : item.type === "event"
            ? `event ${toEventSignature(item)}`
            : item.type,
      )
      .sort();
  const { abi } = await compileTestUsdc();
  assert.deepEqual(signatures(testUsdcAbi), signatures(abi));
});

test("transferWithAuthorization (v, r, s) moves exactly the value once", async () => {
  const auth = await authorize({ value: 1_250_000n });
  const [payerBefore, payToBefore] = await Promise.all([
    balanceOf(devnet.accounts.payer),
    balanceOf(devnet.accounts.payTo),
  ]);
  assert.equal(await authorizationUsed(auth), false);

  const receipt = await submitWithVrs(auth);
  assert.equal(receipt.status, "success");
  const events = parseEventLogs({ abi: testUsdcAbi, logs: receipt.logs });
  assert.deepEqual(
    events.map((e) => e.eventName),
    ["AuthorizationUsed", "Transfer"],
  );
  assert.equal(await balanceOf(devnet.accounts.payer), payerBefore - 1_250_000n);
  assert.equal(await balanceOf(devnet.accounts.payTo), payToBefore + 1_250_000n);
  assert.equal(await authorizationUsed(auth), true);

  await assert.rejects(submitWithVrs(auth), /authorization is used or canceled/);
  await assert.rejects(submitWithBytes(auth), /authorization is used or canceled/);
  assert.equal(await balanceOf(devnet.accounts.payer), payerBefore - 1_250_000n);
});

test("transferWithAuthorization (bytes signature) works as well", async () => {
  const auth = await authorize({ value: 7n });
  const payToBefore = await balanceOf(devnet.accounts.payTo);
  assert.equal((await submitWithBytes(auth)).status, "success");
  assert.equal(await balanceOf(devnet.accounts.payTo), payToBefore + 7n);
  assert.equal(await authorizationUsed(auth), true);
});

test("refuses an expired authorization and one not yet valid", async () => {
  const expired = await authorize({ validBefore: nowSeconds() - 1n });
  await assert.rejects(submitWithVrs(expired), /authorization is expired/);
  const early = await authorize({ validAfter: nowSeconds() + 3600n });
  await assert.rejects(submitWithBytes(early), /authorization is not yet valid/);
  assert.equal(await authorizationUsed(expired), false);
});

test("refuses a signature by the wrong key, a high-s twin and a wrong length", async () => {
  const forged = await authorize({ signer: devnet.accounts.others[0].privateKey });
  await assert.rejects(submitWithVrs(forged), /invalid signature/);
  await assert.rejects(submitWithBytes(forged), /invalid signature/);

  // The malleable twin (n - s, flipped v) recovers the same signer, so only the s check stops it.
  const genuine = await authorize();
  const { r, s, yParity } = parseSignature(genuine.signature);
  const highS = concat([r, numberToHex(SECP256K1_ORDER - BigInt(s), { size: 32 }), yParity === 0 ? "0x1c" : "0x1b"]);
  await assert.rejects(submitWithBytes(genuine, highS), /invalid signature 's' value/);
  await assert.rejects(submitWithBytes(genuine, concat([genuine.signature, "0x00"])), /invalid signature length/);
  assert.equal((await submitWithBytes(genuine)).status, "success");
});

test("receiveWithAuthorization pays only when the payee submits it", async () => {
  const auth = await authorize({ value: 3n, receive: true });
  const { r, s, v } = parseSignature(auth.signature);
  const { reader, relayer } = clients();
  const call = {
    address: devnet.usdc.address,
    abi: testUsdcAbi,
    functionName: "receiveWithAuthorization",
    args: [...authArgs(auth), Number(v), r, s],
  } as const;
  await assert.rejects(reader.simulateContract({ ...call, account: relayer.account }), /caller must be the payee/);
  const payToBefore = await balanceOf(devnet.accounts.payTo);
  const payee = createWalletClient({
    chain: relayer.chain,
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(devnet.accounts.payTo.privateKey),
  });
  await reader.waitForTransactionReceipt({ hash: await payee.writeContract(call) });
  assert.equal(await balanceOf(devnet.accounts.payTo), payToBefore + 3n);
  // A receive signature is not a transfer signature: the type hash differs.
  await assert.rejects(submitWithBytes(await authorize({ receive: true })), /invalid signature/);
});

test("cancelAuthorization burns a nonce before anyone uses it", async () => {
  const auth = await authorize();
  const payer = privateKeyToAccount(devnet.accounts.payer.privateKey);
  const message = { authorizer: payer.address, nonce: auth.message.nonce };
  const signature = await payer.signTypedData({
    domain: domain(),
    types: eip3009Types,
    primaryType: "CancelAuthorization",
    message,
  });
  const { reader, relayer } = clients();
  const hash = await relayer.writeContract({
    address: devnet.usdc.address,
    abi: testUsdcAbi,
    functionName: "cancelAuthorization",
    args: [message.authorizer, message.nonce, signature],
  });
  assert.equal((await reader.waitForTransactionReceipt({ hash })).status, "success");
  assert.equal(await authorizationUsed(auth), true);
  await assert.rejects(submitWithVrs(auth), /authorization is used or canceled/);
});

test("carries Multicall3, through which facilitators diagnose a failed simulation", async () => {
  const { reader } = clients();
  const token = { address: devnet.usdc.address, abi: testUsdcAbi } as const;
  const results = await reader.multicall({
    allowFailure: false,
    contracts: [
      { ...token, functionName: "balanceOf", args: [devnet.accounts.others[2].address] },
      { ...token, functionName: "name" },
      { ...token, functionName: "version" },
      { ...token, functionName: "authorizationState", args: [devnet.accounts.payer.address, generatePrivateKey()] },
    ],
  });
  assert.deepEqual(results, [DEV_USDC_PER_ACCOUNT, "USDC", "2", false]);
});

test("only the deployer can mint", async () => {
  const { reader } = clients();
  const outsider = privateKeyToAccount(devnet.accounts.others[1].privateKey);
  await assert.rejects(
    reader.simulateContract({
      account: outsider,
      address: devnet.usdc.address,
      abi: testUsdcAbi,
      functionName: "mint",
      args: [outsider.address, 1n],
    }),
    /caller is not the owner/,
  );
});

const answers = async (rpcUrl: string) =>
  fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
  }).then(
    (response) => response.ok,
    () => false,
  );

test("stop() ends the anvil process", async () => {
  const other = await startDevnet();
  assert.equal(await answers(other.rpcUrl), true);
  await other.stop();
  assert.equal(await answers(other.rpcUrl), false);
  assert.equal(await answers(devnet.rpcUrl), true, "stopping one devnet leaves the others running");
});

test("anvil does not outlive a process that crashes without stop()", async () => {
  const devnetModule = fileURLToPath(new URL("../../../core/x402/devnet/index.ts", import.meta.url));
  const script = `import { startDevnet } from ${JSON.stringify(devnetModule)};
    const devnet = await startDevnet(); console.log(devnet.rpcUrl); setTimeout(() => { throw new Error("crash"); }, 10);`;
  const child = spawn(process.execPath, tsNodeArgs("--input-type=module", "-e", script), {
    stdio: ["ignore", "pipe", "ignore"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exitCode = await new Promise((resolve) => child.once("exit", resolve));
  assert.equal(exitCode, 1);
  const rpcUrl = output.trim();
  assert.match(rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  // SIGKILL from the exit hook is asynchronous; give the kernel a moment to close anvil's socket.
  const deadline = Date.now() + 3000;
  while ((await answers(rpcUrl)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(await answers(rpcUrl), false);
});
