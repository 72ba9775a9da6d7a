import pino from "pino";
import { readConfig } from "./runtime/config.ts";
import { createService, type Service } from "./runtime/server.ts";
import { listen } from "./runtime/listen.ts";
import { createPayments, runsDevnet, type Payments } from "./x402/payments.ts";
import { plannedDevnet } from "./x402/devnet/index.ts";
import { startMetricsServer } from "./runtime/prometheus.ts";

let payments: Payments | undefined;
let service: Service | undefined;
try {
  const config = readConfig();
  // A person at a terminal reads coloured lines with clock times; anything else (a container's log, a pipe) gets JSON lines.
  const log = process.stdout.isTTY
    ? pino(
        { level: config.logLevel },
        (await import("pino-pretty")).default({
          colorize: true,
          translateTime: "SYS:HH:MM:ss.l",
          ignore: "pid,hostname",
        }),
      )
    : undefined;
  // OpenTelemetry is loaded only when a collector is named: the default boot pays nothing for it.
  const tracing = config.tracing && (await (await import("./runtime/tracing.ts")).startTracing(config.tracing));
  const started = await createService({
    config,
    log,
    payments: async (context) => (payments = await createPayments(config, context)),
    devnet: runsDevnet(config) ? plannedDevnet : undefined,
  });
  service = started;
  const server = await listen(started.app, {
    port: config.port,
    host: config.host,
    handlerTimeoutMs: config.handlerTimeoutMs,
  });
  const metricsPort = config.metrics.port;
  const metricsServer =
    metricsPort === undefined
      ? undefined
      : await startMetricsServer({ port: metricsPort, host: config.host, token: config.metrics.token });
  started.runtime.log.info(
    { url: config.baseUrl, port: config.port, host: config.host, metricsPort, tracing: Boolean(tracing) },
    "listening",
  );
  if (payments?.devnet) {
    console.log(`\nDevnet: anvil at ${payments.devnet.rpcUrl}, test USDC ${payments.devnet.usdc.address}`);
    // The port the service listens on, and the path quoted so a shell leaves its `?` alone.
    const env = config.port === 4021 ? "" : `PORT=${config.port} `;
    console.log(
      `Dev payer ${payments.devnet.accounts.payer.address} holds 1,000,000 test USDC. Try:\n  ${env}npm run pay -- '/v1/hash?text=hi'\n`,
    );
  }
  if (payments?.solana) {
    const s = payments.solana;
    const rpc = s.rpcUrl === "http://127.0.0.1:8899" ? "" : `SOLANA_RPC_URL=${s.rpcUrl} `;
    console.log(`Solana: local SVM at ${s.rpcUrl}, test USDC mint ${s.usdc.address}`);
    console.log(
      `Dev payer ${s.accounts.payer.address} holds 1,000,000 test USDC there. Try:\n  ${rpc}${config.port === 4021 ? "" : `PORT=${config.port} `}npm run pay -- '/v1/hash?text=hi' --network solana\n`,
    );
  }
  // Draining starts at once (new calls get a 503, /ready says so); the listener stops accepting; running
  // calls and job ticks finish; then the store and the devnet close. A second signal stops at once.
  const shutdown = async (signal: string) => {
    started.runtime.log.info({ signal, running: started.runtime.inflight.size }, "shutting down");
    process.once(signal, () => process.exit(1));
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 10_000).unref();
    await Promise.all([started.close(), server.close(), metricsServer?.close()]);
    await tracing?.stop();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
} catch (error) {
  // A service that failed to start has stopped what it started; one that started but could not listen is closed here.
  await service?.close();
  console.error(`Refusing to start: ${(error as Error).message}`);
  process.exit(1);
}
