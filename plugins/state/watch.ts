import { randomUUID } from "node:crypto";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { maxAttempts, retryDelaysMs } from "./_deliveries.ts";
import { checkSelector, observe, watchModes } from "./_observe.ts";
import { newSecret, signatureHeader, signatureScheme } from "./_signing.ts";
import {
  intervalBounds,
  lifetimeBounds,
  reserveSlot,
  saveWatch,
  defaultWatchesPerWallet,
  stateSettings,
  viewOf,
  watchView,
  type Watch,
} from "./_watches.ts";
import { isoAfter, stateKeys, walletOf } from "./_wallet.ts";

const seconds = (ms: number) => `${ms / 1000} s`;

export default defineEndpoint({
  name: "watch",
  method: "GET",
  price: "$0.02",
  probes: true,
  needsWallet: true,
  summary: "Watch a URL for changes and get a signed webhook POST when it changes",
  description:
    `Checks \`url\` every \`interval\` seconds (${intervalBounds.min}-${intervalBounds.max}) until the watch expires after \`ttl\` seconds ` +
    `(${lifetimeBounds.min}-${lifetimeBounds.max}, one day by default). What counts as a change (\`mode\`): \`text\` (default), the visible ` +
    "text of the page or of the elements matching `selector` (scripts and styles ignored, whitespace collapsed); `hash`, the exact bytes " +
    "of the body or the HTML of the selected elements; `status`, the HTTP status code. In `text` and `hash` modes a non-2xx answer or an " +
    "unreachable page is recorded as a check error, never as a change. The page is read once at creation as the baseline (a page that " +
    "cannot be read then is a 502, not charged), and the webhook is checked by the egress guard at creation and again at every delivery. " +
    `On a change the service POSTs JSON \`{id, type: "watch.changed", createdAt, watchId, url, mode, selector, previous, current}\` ` +
    `(previous and current: {status, fingerprint, excerpt, observedAt}). Signature: ${signatureScheme} The secret is returned only ` +
    `here. A non-2xx answer or no answer is retried after ${retryDelaysMs.map(seconds).join(", ")} (${maxAttempts} attempts in all); ` +
    "/v1/watch-status lists each delivery. Watches belong to the paying wallet (a credit-code payment is refused with 403); " +
    `a wallet may have ${defaultWatchesPerWallet} live watches at once by default, WATCH_MAX_PER_WALLET on a deployment (409 \`watch_limit_reached\` beyond).`,
  input: v.object({
    url: urlInput("Page to watch (http or https, ports 80/443)"),
    webhook: urlInput("Receiver of the change events: an http(s) URL that accepts a JSON POST"),
    mode: v.optional(
      v.pipe(v.picklist(watchModes), v.description("What counts as a change: text, hash or status")),
      "text",
    ),
    selector: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(200),
        v.description("CSS selector: watch only the matching elements (text and hash modes)"),
      ),
    ),
    interval: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(intervalBounds.min),
        v.maxValue(intervalBounds.max),
        v.description("Seconds between checks, 300 to 86400"),
      ),
      intervalBounds.default,
    ),
    ttl: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(lifetimeBounds.min),
        v.maxValue(lifetimeBounds.max),
        v.description("Seconds the watch runs, 3600 to 604800 (7 days)"),
      ),
      lifetimeBounds.default,
    ),
  }),
  output: v.object({
    ...watchView,
    secret: v.pipe(v.string(), v.description("Key of the HMAC that signs every delivery; shown only in this answer")),
    signatureHeader: v.string(),
    baseline: v.object({ status: v.number(), fingerprint: v.string(), excerpt: v.string(), observedAt: v.string() }),
  }),
  example: {
    input: {
      url: "https://example.com/",
      webhook: "https://agent.example.net/hooks/watch",
      mode: "text",
      interval: 3600,
      ttl: 86400,
    },
    output: {
      id: "0b6f3c2e-5d7a-4f1e-9a43-6a1e2f0c9d11",
      url: "https://example.com/",
      webhook: "https://agent.example.net/hooks/watch",
      mode: "text",
      selector: null,
      interval: 3600,
      createdAt: "2026-11-23T10:00:00.000Z",
      expiresAt: "2026-11-24T10:00:00.000Z",
      nextCheckAt: "2026-11-23T11:00:00.000Z",
      status: "active",
      secret: "whsec_Qm9vdHN0cmFwU2VjcmV0Rm9yRXhhbXBsZQ",
      signatureHeader,
      baseline: {
        status: 200,
        fingerprint: "feb057ddba5ac313506909af05c17370808a81030f057346499d045c25534dbf",
        excerpt:
          "Example Domain\nThis domain is for use in documentation examples without needing permission. Avoid use in operations.\nLearn more",
        observedAt: "2026-11-23T10:00:00.000Z",
      },
    },
  },
  settings: stateSettings,
  async handler(ctx) {
    const { input, payer, egress, store, now, settings } = ctx;
    const owner = walletOf(payer);
    if (input.ttl < input.interval)
      throw badRequest("ttl must be at least one interval", {
        issues: [{ field: "ttl", message: "shorter than interval" }],
      });
    if (input.selector && input.mode === "status")
      throw badRequest("selector applies to the text and hash modes only", {
        issues: [{ field: "selector", message: "not used in status mode" }],
      });
    checkSelector(input.selector);
    await egress.check(input.webhook);
    const at = now();
    const target = { url: input.url, mode: input.mode, selector: input.selector ?? null };
    const baseline = await observe(egress, target, at);
    const id = randomUUID();
    await reserveSlot(ctx.reserve, store, owner, id, input.ttl * 1000, settings.watchesPerWallet);
    const watch: Watch = {
      id,
      owner,
      ...target,
      webhook: input.webhook,
      interval: input.interval,
      secret: newSecret(),
      createdAt: at.toISOString(),
      expiresAt: isoAfter(at, input.ttl * 1000),
      nextCheckAt: isoAfter(at, input.interval * 1000),
      checks: 0,
      changes: 0,
      last: baseline,
      lastCheckedAt: at.toISOString(),
      lastChangedAt: null,
      lastError: null,
      deliveries: [],
    };
    ctx.afterPayment(
      () => saveWatch(store, watch, at),
      () => store.delete(stateKeys.watch(id)),
    );
    return { ...viewOf(watch, at), secret: watch.secret, signatureHeader, baseline };
  },
});
