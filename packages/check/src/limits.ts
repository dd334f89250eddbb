/** Every limit of the code_check tool; each can be overridden through the `limits` option. */
export interface CodeCheckLimits {
  /** Wall-clock budget of one call in milliseconds (the ADR gives ruff 30 s); files not reached are reported. */
  readonly timeBudgetMs: number;
  /** Source files checked per call; larger trees are cut and the summary says so. */
  readonly maxFiles: number;
  /** Files larger than this are skipped: generated code is not worth checking and costs much memory. */
  readonly maxFileBytes: number;
  /** Files the TypeScript program may load besides the checked ones (imports, declarations, package.json). */
  readonly maxProgramFiles: number;
  /** Rounds of "build program, load the files it asked for" before checking with what is loaded. */
  readonly maxResolveRounds: number;
  /** Largest configuration file (tsconfig.json, ruff.toml, pyproject.toml) read. */
  readonly maxConfigBytes: number;
  /** Characters of one diagnostic message kept; some compiler messages nest whole type dumps. */
  readonly maxMessageChars: number;
}

/** Defaults sized for a real repository. */
export const DEFAULT_CODE_CHECK_LIMITS: CodeCheckLimits = Object.freeze({
  timeBudgetMs: 30_000,
  maxFiles: 2_000,
  maxFileBytes: 2 * 1024 * 1024,
  maxProgramFiles: 5_000,
  maxResolveRounds: 12,
  maxConfigBytes: 1024 * 1024,
  maxMessageChars: 1_000,
});

/** Merges caller overrides over the defaults; only non-negative integers are taken. */
export function resolveCodeCheckLimits(overrides?: Partial<CodeCheckLimits>): CodeCheckLimits {
  const merged: Record<string, number> = { ...DEFAULT_CODE_CHECK_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (key in merged && typeof value === 'number' && Number.isInteger(value) && value >= 0) merged[key] = value;
  }
  return Object.freeze(merged) as unknown as CodeCheckLimits;
}
