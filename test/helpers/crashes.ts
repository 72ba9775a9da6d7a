import { setImmediate as turn } from "node:timers/promises";

/**
 * Counts the errors that would end the service's process (an uncaught exception, an unhandled rejection)
 * while a test runs. `settled()` lets the event loop run a few turns first: a destroyed stream reports its
 * error one turn later.
 */
export function watchCrashes() {
  const crashes: string[] = [];
  const record = (error: unknown) =>
    crashes.push(
      String((error as Error)?.stack ?? error)
        .split("\n")
        .slice(0, 3)
        .join(" | "),
    );
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  return {
    crashes,
    async settled(): Promise<string[]> {
      for (let i = 0; i < 5; i++) await turn();
      return crashes;
    },
    stop() {
      process.off("uncaughtException", record);
      process.off("unhandledRejection", record);
    },
  };
}
