export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  /** Consecutive failures that open the breaker. */
  threshold: number;
  /** How long it stays open before one probe may go through. */
  cooldownMs: number;
  now?: () => number;
}

/**
 * A circuit breaker for one upstream. Every admitted call must end in exactly one of `success`,
 * `failure` or `release` (a call that says nothing about the upstream's health, e.g. the caller left).
 */
export function createBreaker({ threshold, cooldownMs, now = Date.now }: BreakerOptions) {
  let failures = 0;
  let openedAt = 0;
  let probing = false;

  function state(): BreakerState {
    if (failures < threshold) return "closed";
    return now() - openedAt >= cooldownMs ? "half-open" : "open";
  }

  return {
    state,
    /** 0 when the call may go now (claiming the single half-open probe), else the seconds to wait. */
    admit(): number {
      const current = state();
      if (current === "closed") return 0;
      if (current === "half-open" && !probing) {
        probing = true;
        return 0;
      }
      return Math.max(1, Math.ceil((openedAt + cooldownMs - now()) / 1000));
    },
    success() {
      failures = 0;
      probing = false;
    },
    failure() {
      failures += 1;
      probing = false;
      if (failures >= threshold) openedAt = now();
    },
    release() {
      probing = false;
    },
  };
}

export type Breaker = ReturnType<typeof createBreaker>;
