/**
 * Loads once, on first use, so a big module or dataset costs no boot time or memory until someone asks.
 * A loader returning a promise (a dynamic import) is cached as that promise.
 */
export function lazy<T>(load: () => T): () => T {
  let value: T | undefined;
  let loaded = false;
  return () => {
    if (!loaded) {
      value = load();
      loaded = true;
    }
    return value as T;
  };
}
