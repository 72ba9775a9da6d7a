import type { EndpointContext } from "../../core/endpoint.ts";
import { ServiceError, toServiceError } from "../../core/runtime/errors.ts";
import { across } from "./_across.ts";
import { debridge } from "./_debridge.ts";
import { kyberswap } from "./_kyberswap.ts";
import { lifi } from "./_lifi.ts";
import { relay } from "./_relay.ts";
import type { Adapter, RouteQuote, RouteRequest } from "./_route.ts";
import type { SwapSettings } from "./_settings.ts";

/** Cross-chain: Relay, LI.FI, Across, deBridge. Same-chain: Relay, LI.FI and KyberSwap (keyless). */
export const adapters: Adapter[] = [relay, lifi, across, debridge, kyberswap];
export const raceUpstreams = adapters.map((a) => a.upstream);

export interface Skipped {
  source: string;
  reason: "deadline" | "error";
  message: string;
}

export interface RaceResult {
  answered: RouteQuote[];
  skipped: Skipped[];
}

type Ctx = Pick<EndpointContext<unknown, string, SwapSettings>, "upstream" | "signal" | "log" | "settings">;

/**
 * Asks every adapter that serves the route at once and stops waiting at the deadline, so a hanging
 * aggregator never holds the answer. None answered: 504 if one was still out, else 502. Never charged.
 */
export async function raceRoutes(
  ctx: Ctx,
  req: RouteRequest,
  deadlineMs = ctx.settings.raceDeadlineMs,
): Promise<RaceResult> {
  const entrants = adapters.filter((a) => a.serves(req));
  const answered: RouteQuote[] = [];
  const failed: Skipped[] = [];
  const runs = entrants.map((adapter) =>
    adapter.quote(ctx.upstream(adapter.upstream), req).then(
      (quote) => void answered.push(quote),
      (error) => {
        const e = toServiceError(error);
        ctx.log.warn({ source: adapter.name, status: e.status, message: e.message }, "swap aggregator failed");
        failed.push({ source: adapter.name, reason: "error", message: e.message });
      },
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
  await Promise.race([Promise.all(runs), deadline]).finally(() => clearTimeout(timer));
  const settled = new Set([...answered.map((q) => q.source), ...failed.map((f) => f.source)]);
  const late = entrants
    .filter((a) => !settled.has(a.name))
    .map((a): Skipped => ({ source: a.name, reason: "deadline", message: `no answer within ${deadlineMs} ms` }));
  const skipped = [...failed, ...late];
  if (answered.length === 0) {
    const status = late.length > 0 ? 504 : 502;
    throw new ServiceError(
      status,
      status === 504 ? "upstream_timeout" : "upstream_error",
      "No swap aggregator answered with a route",
      { skipped },
    );
  }
  return { answered: [...answered], skipped };
}
