/**
 * The readiness protocol of every bench server: it prints its URL alone on a line of stdout once it
 * listens, and closes cleanly on SIGTERM (so `--cpu-prof` gets to write its profile).
 */
export function announceReady(url: string, close: () => Promise<unknown>) {
  console.log(url);
  const stop = async () => {
    await close().catch(() => {});
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

export const portFromEnv = () => {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error("PORT must be set by the bench runner");
  return port;
};
