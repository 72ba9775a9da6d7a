import { paymentMiddleware } from "@x402/express";
import express from "express";
import { announceReady, portFromEnv } from "./announce.ts";
import { hashAnswer } from "./hash-answer.ts";
import { referencePaymentSetup } from "./reference-routes.ts";

/** Reference: @x402/express's paymentMiddleware guarding GET /v1/hash (verify, run, settle). */
const port = portFromEnv();
const { routes, server: resourceServer } = referencePaymentSetup();
const app = express();
app.use(paymentMiddleware(routes, resourceServer));
app.get("/v1/hash", (req: any, res: any) => res.json(hashAnswer(String(req.query.text ?? ""))));
const server = app.listen(port, "127.0.0.1", () => {
  announceReady(`http://127.0.0.1:${port}`, () => new Promise<void>((resolve) => server.close(() => resolve())));
});
