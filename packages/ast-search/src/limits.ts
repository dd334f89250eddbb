/** Every limit of the ast_search tool; each can be overridden through the `limits` option. */
export interface AstSearchLimits {
  /** Files larger than this are skipped: generated or minified sources cost much and rarely hold the match sought. */
  readonly maxFileBytes: number;
  /** Files searched per call; past it the search stops and says so, keeping one call bounded in a huge tree. */
  readonly maxFiles: number;
  /** Wall-clock budget of one call in milliseconds (the ADR's 30 s); files not reached are reported, not hidden. */
  readonly timeBudgetMs: number;
  /** Characters of a match's text returned; a match can be a whole function, the location says where to read more. */
  readonly maxMatchTextChars: number;
  /** Files parsed at once on the native thread pool; more rarely helps and holds more sources in memory. */
  readonly parseConcurrency: number;
  /**
   * Estimated bytes (source text plus native trees) of the parse cache shared by the calls of this process; parsed
   * files that did not change are not read or parsed again. 0 turns the cache off.
   */
  readonly cacheMaxBytes: number;
}

/** Defaults tuned for a real repository on a laptop. */
export const DEFAULT_AST_SEARCH_LIMITS: AstSearchLimits = Object.freeze({
  maxFileBytes: 1024 * 1024,
  maxFiles: 20_000,
  timeBudgetMs: 30_000,
  maxMatchTextChars: 300,
  parseConcurrency: 8,
  cacheMaxBytes: 512 * 1024 * 1024,
});

/** Merges caller overrides over the defaults; only non-negative integers are taken. */
export function resolveAstSearchLimits(overrides?: Partial<AstSearchLimits>): AstSearchLimits {
  const merged: Record<string, number> = { ...DEFAULT_AST_SEARCH_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (key in merged && typeof value === 'number' && Number.isInteger(value) && value >= 0) merged[key] = value;
  }
  merged.parseConcurrency = Math.max(1, merged.parseConcurrency ?? 1);
  return Object.freeze(merged) as unknown as AstSearchLimits;
}
