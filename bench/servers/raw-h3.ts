import { H3, serve } from "h3";
import { announceReady, portFromEnv } from "./announce.ts";

/** The floor: a bare h3 v2 app with one JSON route, served the way core/main.ts serves ours. */
const app = new H3().get("/v1/hash", () => ({ ok: true }));
const port = portFromEnv();
const server = serve(app, { port, hostname: "127.0.0.1", silent: true });
await server.ready();
announceReady(`http://127.0.0.1:${port}`, () => server.close());
