import { startServer } from "../lib/child.ts";
import { measureForDuration } from "../lib/load.ts";
import type { Scenario } from "./scenario.ts";

export const rawH3: Scenario = {
  id: "raw-h3",
  async run(ctx) {
    const server = await startServer("raw-h3", {}, ctx.nodeArgs("raw-h3", "raw-h3"));
    try {
      const row = await measureForDuration({
        target: "h3 2.0.8, one route returning { ok: true }",
        url: `${server.url}/v1/hash`,
        expectedStatus: 200,
      });
      return {
        id: "raw-h3",
        title: "1. Raw h3 (the floor)",
        notes: [
          '`new H3().get("/v1/hash", () => ({ ok: true }))` served with h3\'s `serve` (bench/servers/raw-h3.ts); `GET /v1/hash`.',
        ],
        rows: [row],
      };
    } finally {
      await server.stop();
    }
  },
};
