import type { Store } from "../../core/endpoint.ts";

/**
 * Runs a write that is not idempotent (an increment, a score added) once per marker, so an effect the call
 * path runs again after a failure does not count twice. The marker is taken first and given back when the
 * write fails, so the next run does it.
 */
export async function once(
  store: Store,
  marker: string,
  ttlMs: number | undefined,
  write: () => Promise<unknown>,
): Promise<void> {
  if (!(await store.claim(marker, true, ttlMs))) return;
  try {
    await write();
  } catch (error) {
    await store.delete(marker).catch(() => undefined);
    throw error;
  }
}
