import { serve } from "@hono/node-server";
import { paymentMiddleware } from "@x402/hono";
import { Hono } from "hono";
import { announceReady, portFromEnv } from "./announce.ts";
import { hashAnswer } from "./hash-answer.ts";
import { referencePaymentSetup } from "./reference-routes.ts";

/** Reference: @x402/hono's paymentMiddleware guarding GET /v1/hash, served with @hono/node-server. */
const port = portFromEnv();
const { routes, server: resourceServer } = referencePaymentSetup();
const app = new Hono();
app.use(paymentMiddleware(routes, resourceServer));
app.get("/v1/hash", (c) => c.json(hashAnswer(c.req.query("text") ?? "")));
const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => {
  announceReady(`http://127.0.0.1:${port}`, () => new Promise<void>((resolve) => server.close(() => resolve())));
});
