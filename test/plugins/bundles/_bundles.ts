import { complianceUpstreams } from "../../../plugins/compliance/_upstreams.ts";
import { marketUpstreams } from "../../../plugins/market/_upstreams.ts";
import { onchainUpstreams } from "../../../plugins/onchain/_upstreams.ts";
import { publicdataUpstreams } from "../../../plugins/publicdata/_upstreams.ts";
import { webUpstreams } from "../../../plugins/web/_upstreams.ts";
import { loadFixture, serveFixtures, type AfterHost, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService, upstreamUrlEnv, type TestServiceOptions } from "../../helpers/service.ts";

export { dataOf, expectFree400 } from "../../helpers/expect.ts";

// Where each family's recorded fixtures expect an upstream's base URL on the shared server (default /<name>).
const BASES: Record<string, string> = {
  goplus: "",
  "honeypot-is": "",
  "blockscout-ethereum": "",
  sourcify: "",
  "metamask-phishing": "",
  "ofac-sdn": "/ofac",
  "eu-fsf": "/eu",
  "un-sc": "/un",
  "uk-sanctions": "/uk",
  "cisa-kev": "/feeds",
};

const upstreams = {
  ...marketUpstreams,
  ...onchainUpstreams,
  ...webUpstreams,
  ...complianceUpstreams,
  ...publicdataUpstreams,
};

/** `market/coingecko.global` is test/plugins/market/fixtures/coingecko.global.json, the file that family's tests use. */
const family = (ref: string) => {
  const [name, file] = ref.split("/");
  return loadFixture(file, new URL(`../${name}/fixtures/`, import.meta.url));
};

/**
 * The families the parts live in, their upstreams on one fixture server (each fixture answering as often as
 * asked: several parts share upstreams). Returns the server and the service.
 */
export async function bundleService(t: AfterHost, fixtures: (string | Fixture)[], options: TestServiceOptions = {}) {
  const loaded = await Promise.all(fixtures.map((f) => (typeof f === "string" ? family(f) : f)));
  const api = await serveFixtures(t, loaded, { reuse: true });
  // No part may reach a public node: a chain's node answers from a closed port (connection refused) unless a test points it elsewhere.
  const env = upstreamUrlEnv(Object.keys(upstreams), (name) =>
    name.endsWith("-rpc") ? "http://127.0.0.1:9" : `${api.url}${BASES[name] ?? `/${name}`}`,
  );
  const service = await startTestService({
    plugins: ["bundles", "market", "onchain", "web", "compliance", "publicdata"],
    ...options,
    env: { ...env, SEC_USER_AGENT: "Example Research ops@example.com", ...options.env },
  });
  return { api, service };
}

/** A fixture answering a failure, as often as asked (the client retries). */
export const failing = (path: string, status: number, source: string, method = "GET"): Fixture => ({
  source,
  request: { method, path },
  response: { status, body: "upstream error", headers: { "retry-after": "0" } },
});

/** Which parts answered and which failed, with their statuses: `{ price: 200, news: 503 }`. */
export const statuses = (data: { parts: Record<string, { status: number }> }) =>
  Object.fromEntries(Object.entries(data.parts).map(([name, p]) => [name, p.status]));
