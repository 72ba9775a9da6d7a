import { H3, serve } from "h3";
import { FastResponse } from "srvx";
import { announceReady, portFromEnv } from "./announce.ts";

/**
 * The ceiling for a route that answers our 402: h3 answering, on `GET /v1/hash`, the exact status,
 * headers and body our service gave (CONSTANT_RESPONSE, captured by the 402 scenario), with no
 * validation, no gate and no logging; only the request id is made per request, as ours does.
 */
const captured = JSON.parse(process.env.CONSTANT_RESPONSE!) as {
  status: number;
  headers: [string, string][];
  body: string;
};
const app = new H3().get(
  "/v1/hash",
  () =>
    new FastResponse(captured.body, {
      status: captured.status,
      headers: [...captured.headers, ["x-request-id", crypto.randomUUID()]],
    }),
);
const port = portFromEnv();
const server = serve(app, { port, hostname: "127.0.0.1", silent: true });
await server.ready();
announceReady(`http://127.0.0.1:${port}`, () => server.close());
