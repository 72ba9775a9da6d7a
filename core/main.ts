import { serve } from "h3";
import { readConfig } from "./runtime/config.ts";
import { createService } from "./runtime/server.ts";
import { createPayments } from "./x402/payments.ts";

try {
  const config = readConfig();
  const { app, runtime } = await createService({ config, payments: (log) => createPayments(config, log) });
  const server = serve(app, { port: config.port, hostname: config.host, silent: true });
  await server.ready();
  runtime.log.info({ url: config.baseUrl, port: config.port, host: config.host }, "listening");
} catch (error) {
  console.error(`Refusing to start: ${(error as Error).message}`);
  process.exit(1);
}
