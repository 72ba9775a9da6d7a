import * as v from "valibot";
import { isIP } from "node:net";
import { defineBundle, skip } from "./_compose.ts";
import { certDaysLeft, tlsTarget, UrlInput } from "./_site.ts";
import { examples } from "./_examples.ts";

interface MonitorData {
  up?: boolean;
  status?: number;
  statusMatches?: boolean;
  keywordFound?: boolean | null;
  latencyMs?: number;
}

/** A certificate closer than this to expiry is an alert. */
const CERT_ALERT_DAYS = 14;
const SLOW_SCORE = 50;

export default defineBundle({
  name: "monitoring-suite",
  price: "$0.05",
  summary:
    "One-shot monitoring of a site or API: uptime and keyword probe, health endpoint, TLS expiry, DNS, security headers and page speed, with an overall status and alerts",
  description:
    "Composes monitor (status, expected status, keyword), api-health (its health path, one sample), ssl-certificate (https URLs), dns (A record of the host), security-headers and page-speed. " +
    `status is down when the monitor probe failed or the page is not up, degraded with any alert (status or keyword mismatch, unhealthy health endpoint, certificate expiring within ${CERT_ALERT_DAYS} days or untrusted, headers graded D or F, speed score under ${SLOW_SCORE}, no A record), else up. It does not create a watch: /v1/watch does that.`,
  input: v.object({
    url: UrlInput,
    keyword: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Text the page must contain")),
    ),
    expectedStatus: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(100),
        v.maxValue(599),
        v.description("The HTTP status the page must answer"),
      ),
    ),
    healthPath: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\//, "a path starting with /"),
        v.maxLength(200),
        v.description("The health endpoint's path, for api-health"),
      ),
      "/health",
    ),
  }),
  parts: {
    monitor: "monitor",
    health: "api-health",
    tls: "ssl-certificate",
    dns: "dns",
    headers: "security-headers",
    speed: "page-speed",
  },
  plan({ url, keyword, expectedStatus, healthPath }) {
    const tls = tlsTarget(url);
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return {
      monitor: { url, ...(keyword ? { keyword } : {}), ...(expectedStatus ? { expectedStatus } : {}) },
      health: { url, path: healthPath, samples: 1 },
      tls: tls ?? skip("plain http: no certificate"),
      dns: isIP(host) ? skip("the URL names an IP address") : { name: host, type: "A" },
      headers: { url },
      speed: { url },
    };
  },
  digest: v.object({
    status: v.pipe(v.picklist(["up", "degraded", "down"]), v.description("up, degraded or down")),
    alerts: v.pipe(v.array(v.string()), v.description("What needs attention")),
    httpStatus: v.pipe(v.nullable(v.number()), v.description("The page's status (monitor)")),
    latencyMs: v.pipe(v.nullable(v.number()), v.description("The monitor probe's latency")),
    certDaysRemaining: v.pipe(v.nullable(v.number()), v.description("Days until the certificate expires")),
  }),
  summarize(data) {
    const monitor = data.monitor as MonitorData | undefined;
    const alerts: string[] = [];
    if (monitor?.statusMatches === false) alerts.push(`unexpected status ${monitor.status}`);
    if (monitor?.keywordFound === false) alerts.push("keyword not found on the page");
    const health = data.health as { healthy?: boolean } | undefined;
    if (health && !health.healthy) alerts.push("health endpoint unhealthy");
    const days = certDaysLeft(data.tls);
    if (days !== undefined && days < CERT_ALERT_DAYS) alerts.push(`certificate expires in ${days} days`);
    const cert = data.tls as { trusted?: boolean } | undefined;
    if (cert && cert.trusted === false) alerts.push("certificate not trusted");
    const dns = data.dns as { records?: unknown[] } | undefined;
    if (dns && !dns.records?.length) alerts.push("no A record");
    const grade = (data.headers as { grade?: string } | undefined)?.grade;
    if (grade === "D" || grade === "F") alerts.push(`security headers graded ${grade}`);
    const score = (data.speed as { score?: number } | undefined)?.score;
    if (score !== undefined && score < SLOW_SCORE) alerts.push(`page speed score ${score}`);
    return {
      status: !monitor?.up ? ("down" as const) : alerts.length ? ("degraded" as const) : ("up" as const),
      alerts,
      httpStatus: monitor?.status ?? null,
      latencyMs: monitor?.latencyMs ?? null,
      certDaysRemaining: days ?? null,
    };
  },
  target: ({ url }) => url,
  example: examples["monitoring-suite"],
});
