import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of the ast_search tool, defined once with core's limits mechanism: each can be overridden through the
 * `limits` option, a bad override throws a `ConfigurationError` naming the key, and a tool resolves them once when
 * it is built. Defaults are tuned for a real repository on a laptop.
 */
export const AST_SEARCH_LIMITS = defineLimits('ast_search', {
  maxFileBytes: {
    value: 1024 * 1024,
    reason:
      'files larger than this are skipped: generated or minified sources cost much and rarely hold the match sought',
  },
  maxFiles: {
    value: 20_000,
    reason: 'files searched per call; past it the search stops and says so, keeping one call bounded in a huge tree',
  },
  timeBudgetMs: {
    value: 30_000,
    rule: 'timeout',
    reason:
      "wall-clock budget of one call (the ADR's 30 s), checked between files; files not reached are reported, not hidden",
  },
  maxMatchTextChars: {
    value: 300,
    reason:
      "characters of a match's text returned; a match can be a whole function, the location says where to read more",
  },
  parseConcurrency: {
    value: 8,
    reason: 'files parsed at once on the native thread pool; more rarely helps and holds more sources in memory',
  },
  cacheMaxBytes: {
    value: 512 * 1024 * 1024,
    rule: 'non_negative_integer',
    reason:
      'estimated bytes (source text plus native trees) of the parse cache shared by the calls of this process; 0 turns the cache off',
  },
});

/** The resolved ast_search limits: one number per key of {@link AST_SEARCH_LIMITS}. */
export type AstSearchLimits = LimitValues<keyof typeof AST_SEARCH_LIMITS.defaults>;

/** The default of every ast_search limit. */
export const DEFAULT_AST_SEARCH_LIMITS: AstSearchLimits = AST_SEARCH_LIMITS.defaults;

/** Validates overrides and merges them over the defaults (a bad one throws); resolved limits pass through as they are. */
export function resolveAstSearchLimits(overrides?: Partial<AstSearchLimits>): AstSearchLimits {
  return AST_SEARCH_LIMITS.resolve(overrides);
}
