import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { stateSettings, viewOf, watchView, type Watch } from "./_watches.ts";
import { signInNote, signedInWallet, stateKeys } from "./_wallet.ts";

export default defineEndpoint({
  name: "state/watches",
  method: "GET",
  price: "$0",
  signIn: true,
  settings: stateSettings,
  summary: "List your wallet's live watches and how each is doing (signed in, free)",
  description: `${signInNote} Every live watch the wallet made with /v1/watch, oldest first: its terms, checks, changes and the last error; /v1/watch-status (paid) adds the page's current excerpt and the webhook deliveries. An expired watch leaves this list (it stays readable by id for 7 days).`,
  input: v.object({}),
  output: v.object({
    watches: v.array(
      v.object({
        ...watchView,
        checks: v.number(),
        changes: v.number(),
        lastCheckedAt: v.string(),
        lastChangedAt: v.nullable(v.string()),
        lastError: v.nullable(v.string()),
      }),
    ),
  }),
  example: {
    input: {},
    output: {
      watches: [
        {
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
        },
      ],
    },
  },
  async handler({ wallet, store, now, settings }) {
    const owner = signedInWallet(wallet);
    // A live watch holds one of its wallet's slots until it expires (watch.ts): the slots are the wallet's index.
    const slots = Array.from({ length: settings.watchesPerWallet }, (_, n) => stateKeys.slot(owner, n));
    const ids = (await Promise.all(slots.map((slot) => store.get<string>(slot)))).filter((id) => id !== undefined);
    const watches = (await Promise.all(ids.map((id) => store.get<Watch>(stateKeys.watch(id))))).filter(
      (w): w is Watch => w !== undefined && w.owner === owner,
    );
    return {
      watches: watches
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map((w) => ({
          ...viewOf(w, now()),
          checks: w.checks,
          changes: w.changes,
          lastCheckedAt: w.lastCheckedAt,
          lastChangedAt: w.lastChangedAt,
          lastError: w.lastError,
        })),
    };
  },
});
