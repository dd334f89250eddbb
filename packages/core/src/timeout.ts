/**
 * The longest delay a Node timer can wait (2^31−1 ms, about 24.8 days). Longer finite timeouts are capped to it
 * instead of overflowing into an immediate fire. This is the one timer ceiling of every bough package.
 */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The one timeout rule of every bough package: a timeout that is missing, not a number, not positive or not finite
 * means "use the default" (`fallbackMs`; `undefined` means no timeout); a positive finite value is rounded up to a
 * whole millisecond and capped at `maxMs` (default {@link MAX_TIMEOUT_MS}). `0` therefore never means "no time"
 * nor "no limit".
 */
export function effectiveTimeout<F extends number | undefined>(
  requested: unknown,
  fallbackMs: F,
  maxMs: number = MAX_TIMEOUT_MS,
): number | F {
  const ceiling = Math.min(maxMs, MAX_TIMEOUT_MS);
  if (typeof requested !== 'number' || !Number.isFinite(requested) || requested <= 0) {
    return fallbackMs === undefined ? fallbackMs : (Math.min(fallbackMs, ceiling) as F);
  }
  return Math.min(Math.ceil(requested), ceiling);
}

/** True when {@link effectiveTimeout} would fall back to the default for this value. */
export function isDefaultTimeout(requested: unknown): boolean {
  return typeof requested !== 'number' || !Number.isFinite(requested) || requested <= 0;
}
