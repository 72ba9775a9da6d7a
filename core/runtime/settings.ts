/** Readers for plugin settings (see `definePlugin({ settings })`): each throws, naming the variable, on a bad value. */

/** A whole number from `min` to `max`; `fallback` when the variable is unset or empty. */
export function integerSetting(
  name: string,
  env: NodeJS.ProcessEnv,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = Number(env[name] || fallback);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

/** A comma-separated list, each entry passing `valid`; empty when the variable is unset. */
export function listSetting(
  name: string,
  env: NodeJS.ProcessEnv,
  valid: (entry: string) => boolean,
  what: string,
): string[] {
  const entries = (env[name] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !valid(entry));
  if (bad !== undefined) throw new Error(`${name} must be ${what}; "${bad}" is not`);
  return entries;
}

/** An http(s) URL. */
export const isHttpUrl = (text: string) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
