import { DEFAULT_PROCESS_LIMITS } from './limits.js';

/** Bounds for {@link clampTimeout}; both default to {@link DEFAULT_PROCESS_LIMITS}. */
export interface ClampTimeoutLimits {
  defaultMs?: number;
  maxMs?: number;
}

/** The timeout actually used, plus a sentence for the model when its request was changed. */
export interface ClampedTimeout {
  timeoutMs: number;
  note?: string;
}

/**
 * The single timeout rule shared by the standalone bash tool and the coding toolkit, so `0` can never mean
 * "1 ms" in one place and "default" in another.
 */
export function clampTimeout(requested: number | undefined | null, limits: ClampTimeoutLimits = {}): ClampedTimeout {
  const maxMs = positiveOr(limits.maxMs, DEFAULT_PROCESS_LIMITS.maxTimeoutMs);
  const defaultMs = Math.min(positiveOr(limits.defaultMs, DEFAULT_PROCESS_LIMITS.timeoutMs), maxMs);
  if (requested === undefined || requested === null) return { timeoutMs: defaultMs };
  if (Number.isNaN(requested)) {
    return { timeoutMs: defaultMs, note: `timeout was not a number; used the default of ${defaultMs} ms.` };
  }
  if (requested <= 0) {
    return {
      timeoutMs: defaultMs,
      note: `timeout ${requested} ms is not positive (0 does not mean "no limit"); used the default of ${defaultMs} ms.`,
    };
  }
  if (requested > maxMs) {
    return { timeoutMs: maxMs, note: `timeout ${requested} ms is above the maximum; used ${maxMs} ms instead.` };
  }
  const rounded = Math.ceil(requested);
  return { timeoutMs: rounded };
}

function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.ceil(value) : fallback;
}
