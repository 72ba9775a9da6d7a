import { after, test } from "node:test";
import assert from "node:assert/strict";
import { serve } from "h3";
import { checkL2ForOpenAPI, getOpenAPI, getProbe, isOpenApiParseFailure } from "@agentcash/discovery";
import {
  SIGN_IN_WITH_X,
  assertSIWxChallengeBoundToOrigin,
  createSIWxClientHook,
  type SIWxExtension,
} from "@x402/extensions/sign-in-with-x";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { startTestService } from "../../helpers/service.ts";
import { freePort } from "../../../bench/lib/ports.ts";

// What the catalogs and the extension's own client read of sign-in: the OpenAPI's security scheme
// (`x-agentcash-auth-kind: siwx`), the 402's `sign-in-with-x` extension, and a header made from it that works.
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const service = await startTestService({
  plugins: ["state"],
  env: { BASE_URL: origin, RATE_LIMIT_PER_MINUTE: "1000000" },
});
const server = serve(service.app, { port, hostname: "127.0.0.1", silent: true });
await server.ready();
after(() => Promise.all([server.close(true), service.close()]));

const signInRoutes = service.runtime.endpoints.filter((e) => e.signIn).map((e) => e.path);

test("sign-in in OpenAPI: @agentcash/discovery reads every sign-in route as siwx, every paid one still as paid", async () => {
  assert.deepEqual(signInRoutes.sort(), [
    "/v1/state/channels",
    "/v1/state/credits",
    "/v1/state/history",
    "/v1/state/keys",
    "/v1/state/value",
    "/v1/state/watches",
  ]);
  const source = (await getOpenAPI(origin))._unsafeUnwrap();
  assert.ok(source && !isOpenApiParseFailure(source));
  const routes = checkL2ForOpenAPI(source).routes;
  const modes = Object.fromEntries(
    routes.filter((r) => signInRoutes.includes(r.path)).map((r) => [r.path, r.authMode]),
  );
  assert.deepEqual(modes, Object.fromEntries(signInRoutes.map((p) => [p, "siwx"])));
  assert.equal(routes.find((r) => r.path === "/v1/retrieve")?.authMode, "paid");
  const openapi = await (await service.request("/openapi.json")).json();
  assert.equal(openapi.components.securitySchemes.siwx["x-agentcash-auth-kind"], "siwx");
  assert.deepEqual(openapi.paths["/v1/state/keys"].get.security, [{ siwx: [] }]);
});

test("sign-in in the 402: the probe reads siwx, the challenge is bound to BASE_URL, and the extension's client hook signs in with it", async () => {
  const probes = (await getProbe(`${origin}/v1/state/keys`))._unsafeUnwrap();
  assert.equal(probes.find((p) => p.method === "GET")?.authHint, "siwx");

  const unsigned = await fetch(`${origin}/v1/state/keys`);
  assert.equal(unsigned.status, 402);
  const paymentRequired = JSON.parse(Buffer.from(unsigned.headers.get("payment-required")!, "base64").toString());
  const challenge: SIWxExtension = paymentRequired.extensions[SIGN_IN_WITH_X];
  assertSIWxChallengeBoundToOrigin(challenge.info, `${origin}/v1/state/keys`);
  const hook = createSIWxClientHook(privateKeyToAccount(generatePrivateKey()));
  const signed = await hook({ paymentRequired, requestUrl: `${origin}/v1/state/keys` } as never);
  assert.ok(signed?.headers[SIGN_IN_WITH_X], "the extension's client made a sign-in from our challenge");
  const answered = await fetch(`${origin}/v1/state/keys`, { headers: signed.headers });
  assert.equal(answered.status, 200);
  assert.deepEqual((await answered.json()).data.keys, []);
});
