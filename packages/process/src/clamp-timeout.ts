import { effectiveTimeout, isDefaultTimeout } from '@bough/core';
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
 * Core's one timeout rule (`effectiveTimeout`: non-positive or non-finite means the default) with a per-tool maximum
 * and a sentence for the model whenever its request was changed. Shared by the standalone bash tool and the coding
 * toolkit, so `0` can never mean "1 ms" in one place and "default" in another.
 */
export function clampTimeout(requested: number | undefined | null, limits: ClampTimeoutLimits = {}): ClampedTimeout {
  const maxMs = effectiveTimeout(limits.maxMs, DEFAULT_PROCESS_LIMITS.maxTimeoutMs);
  const defaultMs = effectiveTimeout(limits.defaultMs, DEFAULT_PROCESS_LIMITS.timeoutMs, maxMs);
  if (requested === undefined || requested === null) return { timeoutMs: defaultMs };
  if (Number.isNaN(requested)) {
    return { timeoutMs: defaultMs, note: `timeout was not a number; used the default of ${defaultMs} ms.` };
  }
  if (!Number.isFinite(requested) && requested > 0) {
    return { timeoutMs: defaultMs, note: `timeout ${requested} is not finite; used the default of ${defaultMs} ms.` };
  }
  if (isDefaultTimeout(requested)) {
    return {
      timeoutMs: defaultMs,
      note: `timeout ${requested} ms is not positive (0 does not mean "no limit"); used the default of ${defaultMs} ms.`,
    };
  }
  if (requested > maxMs) {
    return { timeoutMs: maxMs, note: `timeout ${requested} ms is above the maximum; used ${maxMs} ms instead.` };
  }
  return { timeoutMs: effectiveTimeout(requested, defaultMs, maxMs) };
}
