import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of the code_check tool, defined once with core's limits mechanism: each can be overridden through the
 * `limits` option, a bad override throws a `ConfigurationError` naming the key, and a tool resolves them once when
 * it is built. Defaults are sized for a real repository.
 */
export const CODE_CHECK_LIMITS = defineLimits('code_check', {
  timeBudgetMs: {
    value: 30_000,
    rule: 'timeout',
    reason: 'wall-clock budget of one call (the ADR gives ruff 30 s); files not reached are reported',
  },
  maxFiles: { value: 2_000, reason: 'source files checked per call; larger trees are cut and the summary says so' },
  maxFileBytes: {
    value: 2 * 1024 * 1024,
    reason: 'larger files are skipped: generated code is not worth checking and costs much memory',
  },
  maxProgramFiles: {
    value: 5_000,
    reason: 'files the TypeScript program may load besides the checked ones (imports, declarations, package.json)',
  },
  maxResolveRounds: {
    value: 12,
    reason: 'rounds of "build program, load the files it asked for" before checking with what is loaded',
  },
  maxConfigBytes: {
    value: 1024 * 1024,
    reason: 'largest configuration file (tsconfig.json, ruff.toml, pyproject.toml) read',
  },
  maxMessageChars: {
    value: 1_000,
    reason: 'characters of one diagnostic message kept; some compiler messages nest whole type dumps',
  },
});

/** The resolved code_check limits: one number per key of {@link CODE_CHECK_LIMITS}. */
export type CodeCheckLimits = LimitValues<keyof typeof CODE_CHECK_LIMITS.defaults>;

/** The default of every code_check limit. */
export const DEFAULT_CODE_CHECK_LIMITS: CodeCheckLimits = CODE_CHECK_LIMITS.defaults;

/** Validates overrides and merges them over the defaults (a bad one throws); resolved limits pass through as they are. */
export function resolveCodeCheckLimits(overrides?: Partial<CodeCheckLimits>): CodeCheckLimits {
  return CODE_CHECK_LIMITS.resolve(overrides);
}
