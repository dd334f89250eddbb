import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of the search tool, defined once with core's limits mechanism: each can be overridden through
 * `SearchOptions.limits`, a bad override throws a `ConfigurationError` naming the key, and a tool resolves them
 * once when it is built. Defaults are chosen so a large monorepo answers quickly and one result never crowds a
 * model's context.
 */
export const SEARCH_LIMITS = defineLimits('search', {
  timeoutMs: {
    value: 30_000,
    rule: 'timeout',
    reason: "time budget of one search (the peers' 30 s); a slower search should be narrowed, not waited for",
  },
  maxResults: {
    value: 1_000,
    reason: 'largest max_results a request may ask for: more lines than a model can use well would fill its context',
  },
  grepResults: { value: 50, reason: 'matching lines grep returns when max_results is not given' },
  findResults: { value: 100, reason: 'paths find returns when max_results is not given' },
  countLimit: {
    value: 10_000,
    reason: 'counting is cheap, but a pattern matching millions of lines should not scan the whole tree to say so',
  },
  maxLineChars: {
    value: 400,
    reason: 'long enough for any hand-written line; minified bundles and data lines are cut with a marker',
  },
  maxPatternLength: {
    value: 2_000,
    reason: 'real patterns and globs are short; a huge one is a mistake or an attempt to exhaust the regex compiler',
  },
  maxFileBytes: {
    value: 20 * 1024 * 1024,
    reason: 'larger files are nearly always generated data or logs; searching them costs time and rarely helps',
  },
  skipLogBytes: {
    value: 512 * 1024,
    reason:
      "size of ripgrep's log of skipped files past which a find is run again without it: a tree with thousands " +
      'of individually ignored files makes that log cost many times the listing itself (grep keeps no log by default)',
  },
  confirmMs: {
    value: 5_000,
    rule: 'positive',
    reason:
      'time after ripgrep ends to re-check the shown results through the workspace gate when the budget is spent; ' +
      'results not checked by then are left out (never shown unchecked) and the response says timed_out',
  },
});

/** The resolved search limits: one number per key of {@link SEARCH_LIMITS}. */
export type SearchLimits = LimitValues<keyof typeof SEARCH_LIMITS.defaults>;

/** The default of every search limit. */
export const DEFAULT_SEARCH_LIMITS: SearchLimits = SEARCH_LIMITS.defaults;

/** Validates overrides and merges them over the defaults (a bad one throws); resolved limits pass through as they are. */
export function resolveSearchLimits(overrides: Partial<SearchLimits> | undefined): SearchLimits {
  return SEARCH_LIMITS.resolve(overrides);
}

/** The default `max_results` of an action, never above the configured ceiling. */
export function defaultResults(action: 'grep' | 'find', limits: SearchLimits): number {
  return Math.min(action === 'grep' ? limits.grepResults : limits.findResults, limits.maxResults);
}
