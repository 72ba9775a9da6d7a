interface Flight<T> {
  promise: Promise<T>;
  waiters: number;
  controller: AbortController;
}

/**
 * Identical concurrent work runs once. Each caller waits with its own signal; the shared work is
 * aborted only when every caller waiting for it has gone, so one impatient caller never fails the rest.
 */
export function createSingleFlight<T>() {
  const flights = new Map<string, Flight<T>>();

  function start(key: string, work: (signal: AbortSignal) => Promise<T>): Flight<T> {
    const controller = new AbortController();
    const flight: Flight<T> = { waiters: 0, controller, promise: work(controller.signal) };
    flight.promise
      .finally(() => {
        if (flights.get(key) === flight) flights.delete(key);
      })
      .catch(() => {});
    flights.set(key, flight);
    return flight;
  }

  return {
    get size() {
      return flights.size;
    },
    run(key: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
      signal.throwIfAborted();
      const flight = flights.get(key) ?? start(key, work);
      flight.waiters += 1;
      return new Promise<T>((resolve, reject) => {
        const leave = () => {
          flight.waiters -= 1;
          if (flight.waiters === 0) {
            if (flights.get(key) === flight) flights.delete(key);
            flight.controller.abort(signal.reason);
          }
          reject(signal.reason);
        };
        signal.addEventListener("abort", leave, { once: true });
        flight.promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", leave));
      });
    },
  };
}
