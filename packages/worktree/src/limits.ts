import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of `@bough/worktree`, each with its reason; override any of them through the `limits` option of each
 * function. A bad override throws a `ConfigurationError` naming the key.
 */
export const WORKTREE_LIMITS = defineLimits('worktree', {
  gitTimeoutMs: { value: 30_000, rule: 'timeout', reason: 'Time budget for one git command.' },
  gitOutputBytes: {
    value: 4_000_000,
    reason: 'Bytes of output kept per git stream; a diff bigger than this is cut anyway before it reaches a model.',
  },
  patchChars: {
    value: 10_000,
    reason: 'Characters of diff patch returned; the full size is reported beside it.',
  },
});

/** The resolved limits of the worktree functions. */
export type WorktreeLimits = LimitValues<keyof typeof WORKTREE_LIMITS.defaults>;

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_WORKTREE_LIMITS: WorktreeLimits = WORKTREE_LIMITS.defaults;
