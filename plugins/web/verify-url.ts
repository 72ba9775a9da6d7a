import * as v from "valibot";
import { defineEndpoint, type Egress } from "../../core/endpoint.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { mediaType } from "../_shared/page-fetch.ts";
import { leafValidity, oneLineName, tlsHandshake } from "./_tls.ts";
import { lexicalSignals, redirectSignals, verdictOf, type Signal } from "./_url-signals.ts";

export default defineEndpoint({
  name: "verify-url",
  method: "GET",
  price: "$0.01",
  probes: true,
  summary: "Is a URL reachable and safe-looking: status, content type, redirect chain, TLS and warning signs",
  description:
    "Checks the TLS certificate of an https URL's host (one handshake), then GETs the URL through the egress guard " +
    "and reads the redirect chain. Warning signs are heuristics from the URL and its behaviour (plain HTTP, bare IP, " +
    "punycode host, cross-site redirect, HTTPS downgrade, invalid certificate, error status); this is not a blocklist " +
    "lookup, so `ok` does not prove a site is safe. An https host whose certificate is not valid is not requested. " +
    "A target that cannot be reached at all is a 502.",
  input: v.object({ url: urlInput("URL to verify") }),
  output: v.object({
    url: v.string(),
    finalUrl: v.nullable(v.string()),
    reachable: v.pipe(v.boolean(), v.description("An HTTP answer below 400 came back")),
    status: v.nullable(v.number()),
    contentType: v.nullable(v.string()),
    redirects: v.array(v.string()),
    tls: v.nullable(
      v.object({
        valid: v.boolean(),
        trustError: v.nullable(v.string()),
        hostnameMatch: v.boolean(),
        daysRemaining: v.number(),
        issuer: v.string(),
        protocol: v.nullable(v.string()),
      }),
    ),
    signals: v.array(
      v.object({ id: v.string(), severity: v.picklist(["info", "warning", "danger"]), message: v.string() }),
    ),
    verdict: v.pipe(
      v.picklist(["ok", "caution", "danger"]),
      v.description("danger if any signal is danger, caution if any is a warning"),
    ),
  }),
  example: {
    input: { url: "http://example.com/" },
    output: {
      url: "http://example.com/",
      finalUrl: "http://example.com/",
      reachable: true,
      status: 200,
      contentType: "text/html",
      redirects: [],
      tls: null,
      signals: [
        {
          id: "no-https",
          severity: "warning",
          message: "The URL is plain HTTP: traffic can be read and changed on the way.",
        },
      ],
      verdict: "caution",
    },
  },
  cacheTtl: 300,
  async handler({ input, egress, signal, now }) {
    const signals: Signal[] = lexicalSignals(input.url);
    const tls = input.url.toLowerCase().startsWith("https://") ? await tlsOf(egress, input.url, signal, now()) : null;
    if (tls && !tls.valid) {
      signals.push({
        id: "tls-invalid",
        severity: "danger",
        message: `The certificate is not valid (${tls.trustError ?? (tls.hostnameMatch ? "expired" : "wrong host name")}).`,
      });
      return {
        url: input.url,
        finalUrl: null,
        reachable: false,
        status: null,
        contentType: null,
        redirects: [],
        tls,
        signals,
        verdict: verdictOf(signals),
      };
    }
    const response = await egress.fetch(input.url);
    signals.push(...redirectSignals(input.url, response.url, response.redirects));
    if (response.url !== input.url)
      signals.push(...lexicalSignals(response.url).filter((s) => !signals.some((known) => known.id === s.id)));
    if (response.status >= 400)
      signals.push({ id: "error-status", severity: "warning", message: `The final page answers ${response.status}.` });
    return {
      url: input.url,
      finalUrl: response.url,
      reachable: response.status < 400,
      status: response.status,
      contentType: mediaType(response.headers["content-type"]) ?? null,
      redirects: response.redirects,
      tls,
      signals,
      verdict: verdictOf(signals),
    };
  },
});

async function tlsOf(egress: Egress, url: string, signal: AbortSignal, today: Date) {
  const { hostname, port } = new URL(url);
  const hs = await tlsHandshake(egress, hostname.replace(/^\[(.*)\]$/, "$1"), port ? Number(port) : 443, signal);
  const { valid, daysRemaining } = leafValidity(hs, today);
  return {
    valid,
    trustError: hs.authorizationError,
    hostnameMatch: hs.hostnameMatch,
    daysRemaining,
    issuer: oneLineName(hs.chain[0].issuer),
    protocol: hs.protocol,
  };
}
