import net from "node:net";

/** The connections a listening server still holds, by its own count, and raw clients that never let go. */
export function socketWatch(server: () => net.Server, port: () => number) {
  const openConnections = () =>
    new Promise<number>((resolve, reject) =>
      server().getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  return {
    openConnections,
    /** Waits until the server holds no connection, or gives up after `withinMs`; the time it took. */
    async serverLetsGo(withinMs: number): Promise<number> {
      const started = performance.now();
      while ((await openConnections()) > 0 && performance.now() - started < withinMs)
        await new Promise((r) => setTimeout(r, 50));
      return performance.now() - started;
    },
    /** A client that sends `text`, then neither reads nor closes: its socket paused, its receive window filled. */
    neverReads(text: string): net.Socket {
      const socket = net.connect(port(), "127.0.0.1", () => socket.write(text));
      socket.on("error", () => {});
      socket.pause();
      return socket;
    },
  };
}
