/** A value now, or a promise of it: a path that only awaits when one of its steps has to. */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)` at once when the value is at hand, once it resolves when it is a promise. */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
