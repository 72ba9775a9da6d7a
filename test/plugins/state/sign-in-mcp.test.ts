import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { startTestService } from "../../helpers/service.ts";
import { signChallenge } from "../../helpers/sign-in.ts";
import storeEndpoint from "../../../plugins/state/store.ts";

// Sign-in over MCP: the challenge comes in the tool's error result, the signed payload goes back in
// `_meta["sign-in-with-x"]`, and the same refusals hold as over HTTP.
const base = "http://127.0.0.1:4021";
const wallet = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());
const secretKey = "plans/over-mcp";
const secretValue = "read-only-by-its-wallet-over-mcp";
let service: Awaited<ReturnType<typeof startTestService>>;
let mcp: Client;

before(async () => {
  service = await startTestService({ plugins: ["state"] });
  assert.equal(
    (await service.callAs(wallet.address, storeEndpoint, { key: secretKey, value: secretValue })).status,
    200,
  );
  mcp = new Client({ name: "sign-in-mcp-test", version: "1.0.0" });
  const fetchApp = (async (input: RequestInfo | URL, init?: RequestInit) =>
    service.app.fetch(new Request(input, init))) as typeof fetch;
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: fetchApp }));
});
after(async () => {
  await mcp?.close();
  await service?.close();
});

const readValue = (meta?: Record<string, unknown>): Promise<any> =>
  mcp.callTool({
    name: "call_endpoint",
    arguments: { name: "state/value", arguments: { key: secretKey } },
    ...(meta ? { _meta: meta } : {}),
  });

/** The tool's challenge signed by `signer` with the extension's own client helper. */
async function signedIn(signer = wallet) {
  const unsigned = await readValue();
  assert.equal(unsigned.isError, true);
  assert.deepEqual(unsigned.structuredContent.accepts, [], "nothing to pay: a sign-in only");
  const challenge: SIWxExtension = unsigned.structuredContent.extensions[SIGN_IN_WITH_X];
  return (await signChallenge(challenge, signer)).payload;
}

test("sign-in over MCP: the wallet reads its value with the payload in _meta; a replay, another wallet's signature: refused, no data", async () => {
  const payload = await signedIn();
  const read = await readValue({ [SIGN_IN_WITH_X]: payload });
  assert.notEqual(read.isError, true, JSON.stringify(read.content));
  assert.equal(read.structuredContent.data.value, secretValue);
  assert.equal(read._meta, undefined, "nothing was paid");

  const refusals = [
    await readValue({ [SIGN_IN_WITH_X]: payload }),
    await readValue({ [SIGN_IN_WITH_X]: { ...(await signedIn(other)), address: wallet.address } }),
  ];
  for (const refused of refusals) {
    assert.equal(refused.isError, true);
    const text = refused.content[0].text as string;
    assert.ok(!text.includes(secretValue), "no byte of the wallet's data");
  }
  assert.deepEqual(
    refusals.map((r) => JSON.parse(r.content[0].text).error.code),
    ["invalid_siwx_nonce", "invalid_siwx_signature"],
  );
});
