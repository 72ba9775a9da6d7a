import assert from "node:assert/strict";
import { marketUpstreams } from "../../../plugins/market/_upstreams.ts";
import type { Outcome } from "../../../core/runtime/call.ts";
import { serveFixtures, type AfterHost, type Fixture, type FixtureOptions } from "../../helpers/fixtures.ts";
import { startTestService, upstreamUrlEnv } from "../../helpers/service.ts";

export { dataOf, expectFree400 } from "../../helpers/expect.ts";

export const dir = new URL("./fixtures/", import.meta.url);
/** What an operator sets so EDGAR answers: a User-Agent naming a contact e-mail. */
export const secUserAgent = "Example Research ops@example.com";

/**
 * One fixture server for every upstream of the market family, each under its own name: `/okx/public/funding-rate`
 * is OKX's `/api/v5/public/funding-rate`. Returns the server (its calls) and a service pointed at it.
 */
export async function marketService(
  t: AfterHost,
  fixtures: (string | Fixture)[],
  { env: extra, ...options }: FixtureOptions & { env?: Record<string, string> } = {},
) {
  const api = await serveFixtures(t, fixtures, { dir, ...options });
  const env = {
    ...upstreamUrlEnv(Object.keys(marketUpstreams), (name) => `${api.url}/${name}`),
    SEC_USER_AGENT: secUserAgent,
    ...extra,
  };
  const service = await startTestService({ plugins: ["market"], env });
  return { api, service };
}

/** A fixture that fails the way a venue refuses or breaks, answered as often as it is asked (retries). */
export const failing = (path: string, status: number, source: string, method = "GET"): Fixture => ({
  source,
  request: { method, path },
  response: {
    status,
    body:
      status === 451
        ? {
            code: 0,
            msg: "Service unavailable from a restricted location according to 'b. Eligibility' in https://www.binance.com/en/terms. Please contact customer service if you believe you received this message in error.",
          }
        : "upstream error",
    headers: { "retry-after": "0" },
  },
});

/** An upstream failure: 502/503/504 with an error body, so nothing is charged. */
export function expectUpstreamFailure(out: Outcome) {
  assert.ok([502, 503, 504].includes(out.status), JSON.stringify(out.body));
  assert.ok((out.body as { error?: { code: string } }).error?.code);
}
