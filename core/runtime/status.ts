import type { H3 } from "h3";
import type { Runtime } from "./container.ts";
import { representation, serveRepresentation, type Representation } from "./compression.ts";
import { layout, navigation, pageHeaders } from "./pages.ts";
import { lastHour, type WindowSummary } from "./rolling.ts";
import { renderStatus } from "./status-page.ts";
import type { BreakerState } from "./breaker.ts";

/** A key's last hour: its minutes only when it had calls (a quiet family adds a line, not sixty zeros). */
export interface StatusLine extends Omit<WindowSummary, "perMinute"> {
  perMinute?: { calls: number[]; failed: number[]; p95: (number | null)[] };
}

export interface Status {
  generatedAt: string;
  startedAt: string;
  uptimeSeconds: number;
  windowMinutes: number;
  overall: StatusLine;
  families: (StatusLine & { family: string })[];
  upstreams: (StatusLine & { upstream: string; breaker: BreakerState })[];
  settlements: StatusLine & {
    /** Settlements every instance queued for reconciliation, read from the shared store. */
    pending: number | null;
  };
}

const startedAt = new Date(Date.now() - process.uptime() * 1000);

const line = (s: WindowSummary): StatusLine => {
  const { perMinute, ...rest } = s;
  if (!s.calls) return rest;
  return {
    ...rest,
    perMinute: {
      calls: perMinute.map((m) => m.calls),
      failed: perMinute.map((m) => m.failed),
      p95: perMinute.map((m) => m.p95),
    },
  };
};

/** This instance's last hour: its families, its upstreams and their breakers, its settlements; uptime. */
export async function statusOf(rt: Runtime): Promise<Status> {
  const families = [...new Set(rt.endpoints.map((e) => e.family))].sort();
  const upstreams = [
    ...new Set(rt.endpoints.flatMap((e) => [...(e.upstreams ?? []), ...(e.optionalUpstreams ?? [])])),
  ].sort();
  const byFamily = families.map((family) => ({ family, summary: lastHour.summary(`family:${family}`) }));
  const pending = await rt.ledger
    .stats()
    .then((s) => s.pending)
    .catch(() => null);
  return {
    generatedAt: new Date().toISOString(),
    startedAt: startedAt.toISOString(),
    uptimeSeconds: Math.round(process.uptime()),
    windowMinutes: 60,
    overall: line(lastHour.summary("calls")),
    families: byFamily.map(({ family, summary }) => ({ family, ...line(summary) })),
    upstreams: upstreams.map((upstream) => ({
      upstream,
      breaker: rt.upstreams.breakerState(upstream),
      ...line(lastHour.summary(`upstream:${upstream}`)),
    })),
    settlements: { ...line(lastHour.summary("settlements")), pending },
  };
}

/** Built at most every few seconds: the page is free and public, so its work must not grow with its callers. */
const freshForMs = 5_000;

/** `/status` for people and `/status.json` for machines: free, no wallet, this instance's last hour. */
export function mountStatus(app: H3, rt: Runtime): void {
  const nav = navigation(rt);
  let built: { at: number; page: Representation; json: Representation } | undefined;
  let building: Promise<NonNullable<typeof built>> | undefined;
  const current = async () => {
    if (built && Date.now() - built.at < freshForMs) return built;
    building ??= statusOf(rt)
      .then((status) => {
        const page = layout({ path: "/status", title: "Status" }, renderStatus(status), nav);
        built = {
          at: Date.now(),
          page: representation(page, { ...pageHeaders, "cache-control": "no-cache" }),
          json: representation(JSON.stringify(status), {
            "content-type": "application/json; charset=utf-8",
            "access-control-allow-origin": "*",
            "cache-control": "no-cache",
          }),
        };
        return built;
      })
      .finally(() => {
        building = undefined;
      });
    return building;
  };
  app.get("/status", async (event) => serveRepresentation(event.req, (await current()).page));
  app.get("/status.json", async (event) => serveRepresentation(event.req, (await current()).json));
}
