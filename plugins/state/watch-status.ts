import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import type { Delivery } from "./_deliveries.ts";
import { deliveryView, deliveryViewOf, listedDeliveries, viewOf, watchView, type Watch } from "./_watches.ts";
import { stateKeys, walletOf } from "./_wallet.ts";

export default defineEndpoint({
  name: "watch-status",
  method: "GET",
  price: "$0.005",
  needsWallet: true,
  summary:
    "Read a watch made with /v1/watch: its checks, the last change, and every webhook delivery with its attempts",
  description:
    "Only the wallet that created the watch can read it (another wallet, or an unknown id, gets 404, not charged; a credit-code payment " +
    `is refused with 403). An expired watch stays readable for 7 days. \`deliveries\` lists the latest ${listedDeliveries} change events, ` +
    "newest first: pending (with the time of the next retry), delivered, or failed after the last attempt.",
  input: v.object({ id: v.pipe(v.string(), v.uuid(), v.description("Watch id returned by /v1/watch")) }),
  output: v.object({
    ...watchView,
    checks: v.pipe(v.number(), v.description("Checks run since creation (the baseline read not counted)")),
    changes: v.number(),
    lastCheckedAt: v.string(),
    lastChangedAt: v.nullable(v.string()),
    lastError: v.pipe(
      v.nullable(v.string()),
      v.description("Why the last check could not read the page, null when it could"),
    ),
    current: v.object({ status: v.number(), fingerprint: v.string(), excerpt: v.string(), observedAt: v.string() }),
    deliveries: v.array(deliveryView),
  }),
  example: {
    input: { id: "0b6f3c2e-5d7a-4f1e-9a43-6a1e2f0c9d11" },
    output: {
      id: "0b6f3c2e-5d7a-4f1e-9a43-6a1e2f0c9d11",
      url: "https://example.com/",
      webhook: "https://agent.example.net/hooks/watch",
      mode: "text",
      selector: null,
      interval: 3600,
      createdAt: "2026-11-23T10:00:00.000Z",
      expiresAt: "2026-11-24T10:00:00.000Z",
      nextCheckAt: "2026-11-23T13:00:00.000Z",
      status: "active",
      checks: 2,
      changes: 1,
      lastCheckedAt: "2026-11-23T12:00:00.000Z",
      lastChangedAt: "2026-11-23T12:00:00.000Z",
      lastError: null,
      current: {
        status: 200,
        fingerprint: "76ac831b47ba28a61667ca4da8ad5c74a6069344e13c4bdb67788b33d48ad1aa",
        excerpt: "Example Domain\nUpdated text",
        observedAt: "2026-11-23T12:00:00.000Z",
      },
      deliveries: [
        {
          id: "5c2e8f1a-3b7d-4e9c-8a6f-0d1b2c3e4f5a",
          status: "delivered",
          attempts: 2,
          createdAt: "2026-11-23T12:00:00.000Z",
          lastAttemptAt: "2026-11-23T12:00:30.000Z",
          nextAttemptAt: null,
          lastStatus: 200,
          lastError: null,
          deliveredAt: "2026-11-23T12:00:30.000Z",
        },
      ],
    },
  },
  async handler({ input, payer, store, now }) {
    const wallet = walletOf(payer);
    const watch = await store.get<Watch>(stateKeys.watch(input.id));
    if (!watch || watch.owner !== wallet) throw notFound("No watch with this id for this wallet", { id: input.id });
    const deliveries = await Promise.all(watch.deliveries.map((id) => store.get<Delivery>(stateKeys.delivery(id))));
    const { checks, changes, lastCheckedAt, lastChangedAt, lastError, last } = watch;
    return {
      ...viewOf(watch, now()),
      checks,
      changes,
      lastCheckedAt,
      lastChangedAt,
      lastError,
      current: last,
      deliveries: deliveries.filter((d): d is Delivery => d !== undefined).map(deliveryViewOf),
    };
  },
});
